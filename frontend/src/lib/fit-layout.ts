/**
 * A saved pane layout (percentages of the window, as `react-resizable-panels` stores them) made to fit
 * the window it is shown in: saved at 1440 px and loaded (or the window made) 900 px wide, the same percentages would leave the
 * Stage under its least width. Side panes give way as the README says: the Inspector collapses to its
 * rail first, then the Sidebar; a pane that stays open keeps at least its own least width.
 */
export interface PaneLimits {
  sidebar: string;
  stage: string;
  inspector: string;
  /** Least widths, in px. */
  sidebarMin: number;
  stageMin: number;
  inspectorMin: number;
  /** A collapsed pane's rail, in px. */
  rail: number;
}

export type Layout = Record<string, number>;

/** `keep`: the side pane the user just opened; the other one gives way first. */
export function fitLayout(saved: Layout, windowWidth: number, limits: PaneLimits, keep: "sidebar" | "inspector" | null = null): Layout {
  const { sidebar: s, stage: m, inspector: i } = limits;
  if (!(s in saved) || !(m in saved) || !(i in saved) || windowWidth <= 0) return saved;
  const px = (percent: number) => (percent / 100) * windowWidth;
  const pct = (pixels: number) => (pixels / windowWidth) * 100;
  const rail = pct(limits.rail);
  const isRail = (percent: number) => px(percent) <= limits.rail + 1;
  let sidebar = saved[s];
  let inspector = saved[i];
  // An open pane narrower than its least width (its percentage of a smaller window) is widened to it.
  if (!isRail(sidebar)) sidebar = Math.max(sidebar, pct(limits.sidebarMin));
  if (!isRail(inspector)) inspector = Math.max(inspector, pct(limits.inspectorMin));
  const stage = () => 100 - sidebar - inspector;
  const giveWay = keep === "inspector" ? ["sidebar", "inspector"] : ["inspector", "sidebar"];
  for (const pane of giveWay) {
    if (px(stage()) >= limits.stageMin) break;
    if (pane === "inspector" && !isRail(inspector)) inspector = rail;
    if (pane === "sidebar" && !isRail(sidebar)) sidebar = rail;
  }
  return { [s]: sidebar, [m]: stage(), [i]: inspector };
}
