import assert from 'node:assert/strict';
import {
  type ElementLike,
  actionable,
  answersByItself,
  cssPath,
  elementName,
  elementType,
  isStableId,
} from '../../clients/browser/src/element.js';

/** A plain-object element tree: the members element.ts reads, nothing more. */
interface Node extends ElementLike {
  parentElement: Node | null;
  previousElementSibling: Node | null;
  nextElementSibling: Node | null;
  children: Node[];
}

function h(tagName: string, attrs: Record<string, string> = {}, children: Node[] = []): Node {
  const node: Node = {
    tagName: tagName.toUpperCase(),
    id: attrs.id ?? '',
    parentElement: null,
    previousElementSibling: null,
    nextElementSibling: null,
    children,
    getAttribute: (name) => attrs[name] ?? null,
  };
  children.forEach((child, i) => {
    child.parentElement = node;
    child.previousElementSibling = children[i - 1] ?? null;
    child.nextElementSibling = children[i + 1] ?? null;
  });
  return node;
}

describe('tracker: element names', () => {
  it('prefers data-pi-element, then a stable id, then a CSS path', () => {
    assert.equal(elementName(h('button', { 'data-pi-element': 'save', id: 'save-btn' })), 'save');
    assert.equal(elementName(h('button', { id: 'save-btn' })), '#save-btn');
    const button = h('button');
    h('body', {}, [h('main', {}, [h('div'), h('div', {}, [button])])]);
    assert.equal(elementName(button), 'main>div:nth-of-type(2)>button');
  });

  it('anchors the path at the nearest ancestor with a stable id and counts only same-tag siblings', () => {
    const target = h('li');
    h('body', {}, [h('nav', { id: 'menu' }, [h('ul', {}, [h('li'), h('span'), h('li'), target])])]);
    assert.equal(cssPath(target), '#menu>ul>li:nth-of-type(3)');
  });

  it('adds nth-of-type to a first child only when a later sibling has its tag', () => {
    const first = h('p');
    const only = h('a');
    h('body', {}, [h('section', {}, [first, h('p')]), h('footer', {}, [only, h('span')])]);
    assert.equal(cssPath(first), 'section>p:nth-of-type(1)');
    assert.equal(cssPath(only), 'footer>a');
  });

  it('keeps paths short: at most five steps when no id anchors them', () => {
    let leaf = h('button');
    let node = leaf;
    for (let i = 0; i < 8; i++) node = h('div', {}, [node]);
    h('body', {}, [node]);
    assert.equal(cssPath(leaf), 'div>div>div>div>button');
    leaf = h('button');
    assert.equal(cssPath(leaf), 'button', 'a detached element is its tag');
  });

  it('skips ids that frameworks generate', () => {
    for (const id of [':r1:', 'ember1234', 'row-20240101', 'a b', '']) assert.equal(isStableId(id), false, id);
    for (const id of ['save', 'step-2', 'nav_main']) assert.equal(isStableId(id), true, id);
    const button = h('button', { id: ':r7:' });
    h('body', {}, [h('form', { id: 'signup' }, [button])]);
    assert.equal(elementName(button), '#signup>button');
  });

  it('caps names at the 500 characters the ingest schema allows', () => {
    assert.equal(elementName(h('div', { 'data-pi-element': 'x'.repeat(600) })).length, 500);
  });
});

describe('tracker: the element a click is about', () => {
  it('climbs from an icon to its button or link', () => {
    const path = h('path');
    const button = h('button', { id: 'export' }, [h('svg', {}, [path])]);
    h('body', {}, [button]);
    assert.equal(actionable(path), button);
    const span = h('span');
    const link = h('div', { role: 'link' }, [span]);
    h('body', {}, [link]);
    assert.equal(actionable(span), link);
  });

  it('stops at data-pi-element and otherwise keeps the clicked element', () => {
    const text = h('span');
    const card = h('div', { 'data-pi-element': 'card' }, [h('p', {}, [text])]);
    h('body', {}, [card]);
    assert.equal(actionable(text), card);
    const plain = h('p');
    h('body', {}, [h('div', {}, [plain])]);
    assert.equal(actionable(plain), plain);
  });
});

describe('tracker: element types', () => {
  const cases: [Node, string][] = [
    [h('button'), 'button'],
    [h('input', { type: 'submit' }), 'button'],
    [h('div', { role: 'button' }), 'button'],
    [h('a'), 'link'],
    [h('input'), 'input'],
    [h('input', { type: 'password' }), 'input'],
    [h('input', { type: 'checkbox' }), 'checkbox'],
    [h('div', { role: 'tab' }), 'tab'],
    [h('textarea'), 'input'],
    [h('p'), 'paragraph'],
    [h('h2'), 'heading'],
    [h('span'), 'text'],
    [h('label'), 'label'],
    [h('img'), 'image'],
    [h('section'), 'section'],
  ];
  for (const [el, type] of cases) {
    it(`${el.tagName.toLowerCase()} ${el.getAttribute('type') ?? el.getAttribute('role') ?? ''} → ${type}`, () =>
      assert.equal(elementType(el), type));
  }

  it('knows which controls answer a click by themselves (never dead)', () => {
    assert.equal(answersByItself(h('input', { type: 'text' })), true);
    assert.equal(answersByItself(h('input', { type: 'checkbox' })), true);
    assert.equal(answersByItself(h('select')), true);
    assert.equal(answersByItself(h('div', { contenteditable: 'true' })), true);
    assert.equal(answersByItself(h('div', { contenteditable: 'false' })), false);
    assert.equal(answersByItself(h('input', { type: 'submit' })), false);
    assert.equal(answersByItself(h('button')), false);
  });
});
