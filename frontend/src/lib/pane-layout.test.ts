import { describe, expect, it } from "vitest";
import { layoutFor, NO_WISH, type PaneWish, parseWish, wishAfterDrag } from "./pane-layout";

const limits = {
  sidebar: "sb",
  stage: "st",
  inspector: "in",
  sidebarMin: 200,
  stageMin: 480,
  inspectorMin: 200,
  sidebarMaxPercent: 35,
  rail: 44,
  drawerBelow: 800,
  inspectorCollapsedAt: 1024,
  sidebarDefault: 260,
  inspectorDefaultPercent: 33,
};
/** A layout in px, as a person measures it. */
const px = (wish: PaneWish, window: number, keep: "sidebar" | "inspector" | null = null) =>
  Object.fromEntries(Object.entries(layoutFor(wish, window, limits, keep)).map(([k, v]) => [k, Math.round((v / 100) * window)]));

describe("layoutFor", () => {
  it("with no choice made: the Sidebar 260 px, the Inspector a third; at 1024 px and less the Inspector on its rail", () => {
    expect(px(NO_WISH, 1440)).toEqual({ sb: 260, st: 705, in: 475 });
    expect(px(NO_WISH, 1024)).toEqual({ sb: 260, st: 720, in: 44 });
    expect(px(NO_WISH, 900)).toEqual({ sb: 260, st: 596, in: 44 });
  });

  it("1440 → 900 → 1440: the panes narrow, the Inspector first, then come back at the widths the user chose", () => {
    const chosen: PaneWish = { sidebar: 300, inspector: 520, sidebarOpen: true, inspectorOpen: true };
    expect(px(chosen, 1440)).toEqual({ sb: 300, st: 620, in: 520 });
    expect(px(chosen, 900)).toEqual({ sb: 220, st: 480, in: 200 });
    expect(px(chosen, 1440)).toEqual({ sb: 300, st: 620, in: 520 });
    // Too narrow for both at their least widths: the Inspector goes to its rail, and the Sidebar takes back its own width.
    expect(px({ ...chosen, inspector: 400 }, 850)).toEqual({ sb: 298, st: 508, in: 44 });
  });

  it("both panes collapsed, the 700 px drawer, back to 1440: collapsed as left, and each expands to its chosen width", () => {
    const chosen: PaneWish = { sidebar: 320, inspector: 400, sidebarOpen: false, inspectorOpen: false };
    expect(px(chosen, 700)).toEqual({ sb: 44, st: 612, in: 44 });
    expect(px(chosen, 1440)).toEqual({ sb: 44, st: 1352, in: 44 });
    expect(px({ ...chosen, sidebarOpen: true }, 1440)).toEqual({ sb: 320, st: 1076, in: 44 });
    // Under the drawer width the Sidebar's panel is a rail whatever was chosen, and nothing is forgotten.
    expect(px({ ...chosen, sidebarOpen: true }, 760).sb).toBe(44);
  });

  it("the pane just opened gives way last: at 900 px the other narrows first; the Stage keeps 480 px", () => {
    const chosen: PaneWish = { sidebar: 260, inspector: 300, sidebarOpen: true, inspectorOpen: true };
    expect(px(chosen, 900, "inspector")).toEqual({ sb: 200, st: 480, in: 220 });
    expect(px(chosen, 900, "sidebar")).toEqual({ sb: 220, st: 480, in: 200 });
    // Too narrow for either: both on their rails.
    expect(px(chosen, 560)).toEqual({ sb: 44, st: 472, in: 44 });
  });

  it("keeps a chosen width inside the panes' limits: the Sidebar's least width and its 35%, the Inspector's least width", () => {
    expect(px({ sidebar: 900, inspector: 100, sidebarOpen: true, inspectorOpen: true }, 1440)).toEqual({ sb: 504, st: 736, in: 200 });
    expect(px({ sidebar: 50, inspector: null, sidebarOpen: true, inspectorOpen: null }, 1440).sb).toBe(200);
  });
});

describe("wishAfterDrag", () => {
  it("takes the widths of the panes a drag moved; a pane the window sent to its rail stays wished open", () => {
    const wish: PaneWish = { sidebar: 260, inspector: 520, sidebarOpen: true, inspectorOpen: true };
    // At 900 px the Inspector is on its rail (the window's doing); the user drags the Sidebar to 320 px.
    const before = layoutFor(wish, 900, limits);
    const after = { sb: (320 / 900) * 100, st: 100 - (320 / 900) * 100 - before.in, in: before.in };
    expect(wishAfterDrag(wish, before, after, 900, limits)).toEqual({ sidebar: 320, inspector: 520, sidebarOpen: true, inspectorOpen: true });
    // Dragged onto its rail by the user: closed.
    const shut = { sb: (44 / 1440) * 100, st: 60, in: 100 - 60 - (44 / 1440) * 100 };
    expect(wishAfterDrag(wish, layoutFor(wish, 1440, limits), shut, 1440, limits)).toMatchObject({ sidebarOpen: false, sidebar: 260, inspectorOpen: true });
  });
});

describe("parseWish", () => {
  it("reads what it saved, and takes anything else (the older layout, garbage, nonsense widths) as no choice made", () => {
    const wish: PaneWish = { sidebar: 300, inspector: 480, sidebarOpen: false, inspectorOpen: true };
    expect(parseWish(JSON.stringify(wish))).toEqual(wish);
    expect(parseWish('{"sidebar-panel":18,"stage-panel":49,"inspector-panel":33}')).toEqual(NO_WISH);
    expect(parseWish("{not json")).toEqual(NO_WISH);
    expect(parseWish(null)).toEqual(NO_WISH);
    expect(parseWish('{"sidebar":-5,"inspector":"wide","inspectorOpen":"yes"}')).toEqual(NO_WISH);
  });
});
