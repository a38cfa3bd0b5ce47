import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { EXPLANATIONS, type Explained } from '../explain';

const TIP_WIDTH = 288;

/**
 * A score's name with a "?" beside it: hovering either, or focusing the button, shows what the
 * score measures and its scale (EXPLANATIONS). The tip is placed in the viewport (fixed), so a
 * table that scrolls in its own box does not clip it; Escape closes it (WCAG 1.4.13).
 */
export function Explain({ term, children }: { term: Explained; children: ComponentChildren }) {
  const id = useId();
  const box = useRef<HTMLSpanElement>(null);
  const [at, setAt] = useState<{ left: number; top?: number; bottom?: number; width: number }>();
  const text = EXPLANATIONS[term];
  const show = () => {
    const r = box.current!.getBoundingClientRect();
    const width = Math.min(TIP_WIDTH, window.innerWidth - 16);
    const left = Math.max(8, Math.min(r.left, window.innerWidth - width - 8));
    // Near the bottom of the window the tip opens upwards.
    setAt(
      r.bottom > window.innerHeight - 160
        ? { left, width, bottom: window.innerHeight - r.top + 6 }
        : { left, width, top: r.bottom + 6 },
    );
  };
  const hide = () => setAt(undefined);
  useEffect(() => {
    if (!at) return;
    const escape = (event: KeyboardEvent) => event.key === 'Escape' && hide();
    // The tip is fixed in the window: it follows its score when the page or a table scrolls.
    window.addEventListener('keydown', escape);
    window.addEventListener('scroll', show, true);
    return () => {
      window.removeEventListener('keydown', escape);
      window.removeEventListener('scroll', show, true);
    };
  }, [at]);
  return (
    <span class="explain" ref={box} onMouseEnter={show} onMouseLeave={hide} onFocusIn={show} onFocusOut={hide}>
      {children}
      <button
        type="button"
        class="explain__button"
        aria-label={`About ${text.split(':')[0]}`}
        aria-describedby={id}
        onClick={show}
      >
        ?
      </button>
      <span
        id={id}
        role="tooltip"
        class="explain__tip"
        hidden={!at}
        style={
          // Preact 11 adds no unit to numbers: every length is written with its px.
          at && {
            left: `${at.left}px`,
            width: `${at.width}px`,
            ...(at.top === undefined ? { bottom: `${at.bottom}px` } : { top: `${at.top}px` }),
          }
        }
      >
        {text}
      </span>
    </span>
  );
}
