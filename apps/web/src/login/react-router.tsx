/**
 * What the sign-in screen uses of react-router, for the /login entry only (`vite build --mode
 * login` resolves `react-router` here; docs/decisions/018). There is one screen and no router:
 * a link is a plain link and a navigation loads the page, with the app, which takes over from
 * there (after sign-in, the path the customer goes to).
 */
import type { AnchorHTMLAttributes } from 'react';

type LinkProps = AnchorHTMLAttributes<HTMLAnchorElement> & {
  to: string;
  replace?: boolean;
  viewTransition?: boolean;
};

const isAbsolute = (to: string) => /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i.test(to);

/** react-router's `<Link>` as it renders: the same attributes, `data-discover` included. */
export function Link({ to, replace: _replace, viewTransition: _view, ...rest }: LinkProps) {
  return <a {...rest} href={to} data-discover={isAbsolute(to) ? undefined : 'true'} />;
}

type NavigateOptions = { replace?: boolean };

export function useNavigate() {
  return (to: string | number, options: NavigateOptions = {}): Promise<void> => {
    if (typeof to === 'number') window.history.go(to);
    else if (options.replace) window.location.replace(to);
    else window.location.assign(to);
    // The page is leaving: whatever waits on this never needs to go on.
    return new Promise<void>(() => {});
  };
}

export function useSearchParams(): [URLSearchParams] {
  return [new URLSearchParams(window.location.search)];
}

export function useLocation() {
  const { pathname, search, hash } = window.location;
  return { pathname, search, hash, state: null, key: 'default' };
}
