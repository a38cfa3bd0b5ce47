import { useLocation } from 'preact-iso';

/** A navigation's links; the one the current address starts with is marked as the current page. */
export function NavLinks(props: {
  class: 'nav' | 'tabs';
  label: string;
  links: readonly (readonly [href: string, text: string])[];
}) {
  const { path } = useLocation();
  return (
    <nav class={props.class} aria-label={props.label}>
      <ul>
        {props.links.map(([href, text]) => (
          <li key={href}>
            <a href={href} aria-current={path.startsWith(href) ? 'page' : undefined}>
              {text}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
