/**
 * How the tracker names and classifies an element. Only the tag, `id`, `data-pi-*` and the tree
 * are used for the name; `type`, `role` are read to classify, never sent. Written against the few
 * members it reads, so it runs (and is unit-tested) without a DOM.
 */
export interface ElementLike {
  readonly tagName: string;
  readonly id: string;
  readonly parentElement: ElementLike | null;
  readonly previousElementSibling: ElementLike | null;
  readonly nextElementSibling: ElementLike | null;
  getAttribute(name: string): string | null;
}

/** Longest `element` value the ingest schema accepts. */
const MAX_NAME = 500;
/** Steps of a CSS path without an id anchor: short enough to read, long enough to tell siblings apart. */
const MAX_STEPS = 5;
/** How far up a click looks for the control it belongs to (an <svg><path> inside a button). */
const MAX_CLIMB = 10;

const CONTROL_TAGS = new Set(['A', 'BUTTON', 'INPUT', 'SELECT', 'TEXTAREA', 'LABEL', 'SUMMARY', 'OPTION']);
const CONTROL_ROLES = new Set([
  'button',
  'link',
  'tab',
  'menuitem',
  'checkbox',
  'radio',
  'switch',
  'option',
  'treeitem',
]);
const BUTTON_INPUTS = new Set(['button', 'submit', 'reset', 'image']);
const TEXT_TAGS = new Set(['SPAN', 'EM', 'STRONG', 'B', 'I', 'SMALL', 'LI', 'TD', 'TH', 'CODE', 'PRE', 'BLOCKQUOTE']);

const tag = (el: ElementLike) => el.tagName.toUpperCase();
const attr = (el: ElementLike, name: string) => el.getAttribute(name) || undefined;

function isControl(el: ElementLike): boolean {
  return CONTROL_TAGS.has(tag(el)) || CONTROL_ROLES.has(attr(el, 'role') ?? '');
}

/**
 * The element a click is about: the nearest ancestor-or-self that is a control or carries
 * `data-pi-element`, else the clicked element itself.
 */
export function actionable<E extends ElementLike>(target: E): E {
  let el: ElementLike | null = target;
  for (let i = 0; el && i < MAX_CLIMB && tag(el) !== 'BODY'; i++, el = el.parentElement) {
    if (isControl(el) || attr(el, 'data-pi-element')) return el as E;
  }
  return target;
}

/** Ids a framework generates (React's `:r1:`, `ember123`, uuids) change between renders or builds. */
export function isStableId(id: string): boolean {
  return id.length > 0 && id.length <= 100 && !/\d{3,}|:|\s/.test(id);
}

/** `data-pi-element`, else `#id` (when stable), else a short CSS path such as `main>ul>li:nth-of-type(3)>button`. */
export function elementName(el: ElementLike): string {
  const named = attr(el, 'data-pi-element');
  if (named) return named.slice(0, MAX_NAME);
  if (isStableId(el.id)) return `#${el.id}`;
  return cssPath(el);
}

/** Tag names with `:nth-of-type` where a same-tag sibling exists, up to an ancestor with a stable id. */
export function cssPath(el: ElementLike): string {
  const steps: string[] = [];
  let node: ElementLike | null = el;
  while (node && steps.length < MAX_STEPS) {
    const name = tag(node);
    if (name === 'BODY' || name === 'HTML') break;
    if (node !== el && isStableId(node.id)) {
      steps.unshift(`#${node.id}`);
      break;
    }
    steps.unshift(name.toLowerCase() + nthOfType(node));
    node = node.parentElement;
  }
  return (steps.join('>') || tag(el).toLowerCase()).slice(0, MAX_NAME);
}

function nthOfType(el: ElementLike): string {
  const name = tag(el);
  let index = 1;
  for (let s = el.previousElementSibling; s; s = s.previousElementSibling) if (tag(s) === name) index++;
  let later = false;
  for (let s = el.nextElementSibling; s && !later; s = s.nextElementSibling) later = tag(s) === name;
  return index > 1 || later ? `:nth-of-type(${index})` : '';
}

/**
 * The kind of element in the vocabulary of docs/events.md: `button`, `link`, `input`, `checkbox`,
 * `heading`, `paragraph`, `text`, … (text-like kinds are never counted as rage clicks).
 */
export function elementType(el: ElementLike): string {
  const name = tag(el);
  const role = attr(el, 'role');
  if (name === 'INPUT') {
    const type = (attr(el, 'type') ?? 'text').toLowerCase();
    if (BUTTON_INPUTS.has(type)) return 'button';
    return type === 'checkbox' || type === 'radio' ? type : 'input';
  }
  if (name === 'BUTTON' || role === 'button') return 'button';
  if (name === 'A' || role === 'link') return 'link';
  if (role && CONTROL_ROLES.has(role)) return role;
  if (name === 'TEXTAREA') return 'input';
  if (name === 'P') return 'paragraph';
  if (/^H[1-6]$/.test(name)) return 'heading';
  if (TEXT_TAGS.has(name)) return 'text';
  if (name === 'IMG' || name === 'SVG' || name === 'PICTURE') return 'image';
  return name.toLowerCase();
}

/**
 * Controls the browser itself visibly answers (a caret, a tick, an open list) without a DOM
 * change the page could observe: a click on them is never dead.
 */
export function answersByItself(el: ElementLike): boolean {
  const name = tag(el);
  if (name === 'INPUT') return !BUTTON_INPUTS.has((attr(el, 'type') ?? 'text').toLowerCase());
  if (name === 'TEXTAREA' || name === 'SELECT' || name === 'OPTION' || name === 'LABEL') return true;
  const editable = el.getAttribute('contenteditable');
  return editable !== null && editable !== 'false';
}
