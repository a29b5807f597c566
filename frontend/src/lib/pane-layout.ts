/**
 * The panes' layout as the user wants it, and as it is shown in the window there is. The wish is what
 * the user did (widths dragged to, in px; panes collapsed or expanded); the layout is derived from it
 * for the window's width each time the window changes. So a window made narrow takes room from the
 * panes (they narrow to their least widths, then go to their rails, the Inspector first; under the drawer
 * width the Sidebar is a rail) without forgetting anything: made wide again, the panes come back as the user left them.
 */
export interface PaneLimits {
  /** The panels' ids. */
  sidebar: string;
  stage: string;
  inspector: string;
  /** Least widths, in px. */
  sidebarMin: number;
  stageMin: number;
  inspectorMin: number;
  /** The Sidebar's greatest share of the window, in %. */
  sidebarMaxPercent: number;
  /** A collapsed pane's rail, in px. */
  rail: number;
  /** Under this width the Sidebar's panel is a rail (its content opens as a drawer). */
  drawerBelow: number;
  /** Until the user opens or closes it, the Inspector starts collapsed at this width or less. */
  inspectorCollapsedAt: number;
  /** Widths before the user chose any: the Sidebar's in px, the Inspector's in % of the window. */
  sidebarDefault: number;
  inspectorDefaultPercent: number;
}

/** What the user chose. `null`: nothing yet (the default for the window). */
export interface PaneWish {
  sidebar: number | null;
  inspector: number | null;
  sidebarOpen: boolean;
  inspectorOpen: boolean | null;
}

export type Layout = Record<string, number>;

export const NO_WISH: PaneWish = { sidebar: null, inspector: null, sidebarOpen: true, inspectorOpen: null };

/** `keep`: the side pane the user just opened; when the Stage lacks room, the other gives way first. */
export function layoutFor(wish: PaneWish, windowWidth: number, limits: PaneLimits, keep: "sidebar" | "inspector" | null = null): Layout {
  const w = Math.max(windowWidth, 1);
  const sidebarOpen = wish.sidebarOpen && w >= limits.drawerBelow;
  const inspectorOpen = wish.inspectorOpen ?? w > limits.inspectorCollapsedAt;
  const wantedSidebar = clamp(wish.sidebar ?? limits.sidebarDefault, limits.sidebarMin, (limits.sidebarMaxPercent / 100) * w);
  const wantedInspector = Math.max(wish.inspector ?? (limits.inspectorDefaultPercent / 100) * w, limits.inspectorMin);
  let sidebar = sidebarOpen ? wantedSidebar : limits.rail;
  let inspector = inspectorOpen ? wantedInspector : limits.rail;
  const stage = () => w - sidebar - inspector;
  const order = keep === "inspector" ? (["sidebar", "inspector"] as const) : (["inspector", "sidebar"] as const);
  // The Stage short of its least width: the side panes narrow down to their own least widths (the one not just opened first)...
  for (const pane of order) {
    const short = limits.stageMin - stage();
    if (short <= 0) break;
    if (pane === "inspector" && inspector > limits.rail) inspector = Math.max(limits.inspectorMin, inspector - short);
    if (pane === "sidebar" && sidebar > limits.rail) sidebar = Math.max(limits.sidebarMin, sidebar - short);
  }
  // ...and, still short, go to their rails, in the same order.
  for (const pane of order) {
    if (stage() >= limits.stageMin) break;
    if (pane === "inspector") inspector = limits.rail;
    else sidebar = limits.rail;
  }
  // A pane left open takes back, up to its own width, what the one gone to its rail left over.
  const spare = () => stage() - limits.stageMin;
  if (sidebar > limits.rail && spare() > 0) sidebar = Math.min(wantedSidebar, sidebar + spare());
  if (inspector > limits.rail && spare() > 0) inspector = Math.min(wantedInspector, inspector + spare());
  const pct = (px: number) => (px / w) * 100;
  return { [limits.sidebar]: pct(sidebar), [limits.stage]: 100 - pct(sidebar) - pct(inspector), [limits.inspector]: pct(inspector) };
}

/**
 * The user dragged a separator from `before` to `after`: the panes it moved take their new widths as the
 * wish (one dragged onto its rail is closed); a pane it did not move keeps its wish, even one the window
 * had sent to its rail.
 */
export function wishAfterDrag(wish: PaneWish, before: Layout, after: Layout, windowWidth: number, limits: PaneLimits): PaneWish {
  const px = (layout: Layout, id: string) => ((layout[id] ?? 0) / 100) * windowWidth;
  const next = { ...wish };
  const moved = (id: string) => Math.abs(px(after, id) - px(before, id)) >= 1;
  if (moved(limits.sidebar) && windowWidth >= limits.drawerBelow) {
    next.sidebarOpen = px(after, limits.sidebar) > limits.rail + 1;
    if (next.sidebarOpen) next.sidebar = Math.round(px(after, limits.sidebar));
  }
  if (moved(limits.inspector)) {
    next.inspectorOpen = px(after, limits.inspector) > limits.rail + 1;
    if (next.inspectorOpen) next.inspector = Math.round(px(after, limits.inspector));
  }
  return next;
}

/** A wish as saved (localStorage is the user's to edit, and older pages saved other things there): anything unreadable is no wish. */
export function parseWish(text: string | null): PaneWish {
  try {
    const value = JSON.parse(text ?? "null") as Partial<Record<keyof PaneWish, unknown>> | null;
    if (!value || typeof value !== "object") return NO_WISH;
    const width = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v > 0 && v < 100_000 ? v : null);
    return {
      sidebar: width(value.sidebar),
      inspector: width(value.inspector),
      sidebarOpen: value.sidebarOpen !== false,
      inspectorOpen: typeof value.inspectorOpen === "boolean" ? value.inspectorOpen : null,
    };
  } catch {
    return NO_WISH;
  }
}

const clamp = (value: number, least: number, most: number) => Math.max(least, Math.min(value, Math.max(least, most)));
