import { useEffect, useState } from "react";

/**
 * A reply the view shows and keeps fresh: loaded at once, then every `everyMs` while the view is open
 * (an event missed while reconnecting must not leave it stale), and again when `refresh` changes.
 * A reply that comes after the view closed is dropped. `set` puts a newer reply in place meanwhile.
 */
export function usePolled<T>(load: () => Promise<T>, everyMs: number, refresh: unknown = 0) {
  const [value, setValue] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    const look = () =>
      load().then(
        (reply) => {
          if (!live) return;
          setValue(reply);
          setError(null);
        },
        (err: Error) => live && setError(err.message),
      );
    void look();
    const timer = setInterval(look, everyMs);
    return () => {
      live = false;
      clearInterval(timer);
    };
    // `load` is a fresh closure each render; what it reads is in `refresh`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [everyMs, refresh]);
  return { value, error, set: setValue, setError };
}
