/**
 * Browser notifications for scheduled runs (the Notification API). Permission is asked when the
 * user enables a task, never on page load; without it, runs only toast.
 */
const supported = () => typeof window !== "undefined" && "Notification" in window;

/** Asks once, the first time a task is enabled (the browser remembers the answer). */
export function askNotificationPermission(): void {
  if (supported() && Notification.permission === "default") void Notification.requestPermission().catch(() => {});
}

/**
 * Shows a notification if the user allowed them. Every open tab hears the same run: the tag makes
 * the browser show it once.
 */
export function notify(title: string, body: string, tag: string, onClick?: () => void): void {
  if (!supported() || Notification.permission !== "granted") return;
  const shown = new Notification(title, { body, tag });
  if (onClick)
    shown.onclick = () => {
      window.focus();
      onClick();
    };
}
