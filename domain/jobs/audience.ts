import jsep from 'jsep';

/**
 * Job audience criteria: a boolean expression over user properties, e.g.
 *   plan == 'pro' && (mrr >= 100 || company in ['acme', 'globex']) && !trial
 * Parsed by jsep into an AST and evaluated by walking it — never eval'd or compiled to code.
 * Only the node kinds and operators below are accepted; anything else fails to parse.
 */
jsep.addBinaryOp('in', 7);
// jsep ships with arithmetic and bitwise operators; criteria have no use for them.
for (const op of ['+', '-', '*', '/', '%', '|', '^', '&', '<<', '>>', '>>>', '===', '!==']) jsep.removeBinaryOp(op);
for (const op of ['+', '~']) jsep.removeUnaryOp(op);

export type Properties = Record<string, unknown>;
export type Audience = (properties: Properties) => boolean;

export class CriteriaError extends Error {}

type Node = jsep.Expression;

const COMPARISONS = new Set(['==', '!=', '<', '<=', '>', '>=']);

function check(node: Node): void {
  switch (node.type) {
    case 'Literal':
    case 'Identifier':
      return;
    case 'MemberExpression': {
      const member = node as jsep.MemberExpression;
      if (member.computed) throw new CriteriaError('use dotted names (company.size), not brackets');
      check(member.object);
      return;
    }
    case 'ArrayExpression':
      for (const element of (node as jsep.ArrayExpression).elements) {
        if (!element || !(element.type === 'Literal' || isNegativeNumber(element))) {
          throw new CriteriaError('lists may only hold literal values');
        }
      }
      return;
    case 'UnaryExpression': {
      const unary = node as jsep.UnaryExpression;
      if (isNegativeNumber(unary)) return;
      if (unary.operator !== '!') throw new CriteriaError(`operator ${unary.operator} is not supported`);
      check(unary.argument);
      return;
    }
    case 'BinaryExpression': {
      const binary = node as jsep.BinaryExpression;
      if (!['&&', '||', 'in', ...COMPARISONS].includes(binary.operator)) {
        throw new CriteriaError(`operator ${binary.operator} is not supported`);
      }
      if (binary.operator === 'in' && binary.right.type !== 'ArrayExpression') {
        throw new CriteriaError("'in' needs a list on its right: plan in ['pro', 'enterprise']");
      }
      check(binary.left);
      check(binary.right);
      return;
    }
    default:
      throw new CriteriaError(`${node.type} is not allowed in criteria`);
  }
}

function value(node: Node, properties: Properties): unknown {
  switch (node.type) {
    case 'Literal':
      return (node as jsep.Literal).value;
    case 'Identifier': {
      const { name } = node as jsep.Identifier;
      if (name === 'true') return true;
      if (name === 'false') return false;
      if (name === 'null') return null;
      return Object.hasOwn(properties, name) ? properties[name] : undefined;
    }
    case 'MemberExpression': {
      const member = node as jsep.MemberExpression;
      const parent = value(member.object, properties);
      const key = (member.property as jsep.Identifier).name;
      return parent !== null && typeof parent === 'object' && Object.hasOwn(parent, key)
        ? (parent as Properties)[key]
        : undefined;
    }
    case 'ArrayExpression':
      return (node as jsep.ArrayExpression).elements.map((e) => value(e!, properties));
    case 'UnaryExpression': {
      const unary = node as jsep.UnaryExpression;
      if (unary.operator === '-') return -((unary.argument as jsep.Literal).value as number);
      return !truthy(value(unary.argument, properties));
    }
    case 'BinaryExpression': {
      const { operator, left, right } = node as jsep.BinaryExpression;
      if (operator === '&&') return truthy(value(left, properties)) && truthy(value(right, properties));
      if (operator === '||') return truthy(value(left, properties)) || truthy(value(right, properties));
      const a = value(left, properties);
      const b = value(right, properties);
      if (operator === 'in') return (b as unknown[]).some((item) => item === a);
      return compare(operator, a, b);
    }
    default:
      throw new CriteriaError(`${node.type} is not allowed in criteria`);
  }
}

const isNegativeNumber = (node: Node) =>
  node.type === 'UnaryExpression' &&
  (node as jsep.UnaryExpression).operator === '-' &&
  (node as jsep.UnaryExpression).argument.type === 'Literal' &&
  typeof ((node as jsep.UnaryExpression).argument as jsep.Literal).value === 'number';

const truthy = (v: unknown) => v !== undefined && v !== null && v !== false && v !== 0 && v !== '';

/** Strict comparisons: a missing property or mismatched types never match (no JS coercion). */
function compare(operator: string, a: unknown, b: unknown): boolean {
  if (a === undefined || b === undefined) return false;
  if (operator === '==') return a === b;
  if (operator === '!=') return a !== b;
  const comparable =
    (typeof a === 'number' && typeof b === 'number') || (typeof a === 'string' && typeof b === 'string');
  if (!comparable) return false;
  const [x, y] = [a, b];
  return operator === '<' ? x < y : operator === '<=' ? x <= y : operator === '>' ? x > y : x >= y;
}

/** Parses and checks criteria; throws CriteriaError with a readable reason. */
export function parseCriteria(criteria: string): Audience {
  if (criteria.trim() === '') throw new CriteriaError('criteria is empty');
  let ast: Node;
  try {
    ast = jsep(criteria);
  } catch (err) {
    throw new CriteriaError((err as Error).message);
  }
  if (ast.type === 'Compound') throw new CriteriaError('criteria must be a single expression');
  check(ast);
  return (properties) => truthy(value(ast, properties));
}
