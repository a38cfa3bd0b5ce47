import assert from 'node:assert/strict';
import { ProjectShare } from '../../domain/exports/project-share.js';

describe('a project’s share of the streamed-export connections', () => {
  it('gives each project at most its share, whatever the others hold', () => {
    const share = new ProjectShare(2);
    const a1 = share.take('a');
    const a2 = share.take('a');
    assert.ok(a1 && a2);
    assert.equal(share.take('a'), undefined, 'a third of project a is refused');
    assert.ok(share.take('b'), 'project b is not held back by a');
    a1();
    assert.equal(share.holding('a'), 1);
    const a3 = share.take('a');
    assert.ok(a3, 'a release makes room');
    assert.equal(share.take('a'), undefined);
  });

  it('counts a release once, however often it is called', () => {
    const share = new ProjectShare(1);
    const release = share.take('a')!;
    release();
    release();
    assert.equal(share.holding('a'), 0);
    const again = share.take('a');
    assert.ok(again);
    release();
    assert.equal(share.holding('a'), 1, 'a stale release does not free the new holder’s slot');
    assert.equal(share.take('a'), undefined);
  });
});
