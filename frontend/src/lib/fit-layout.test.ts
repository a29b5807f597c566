import { describe, expect, it } from "vitest";
import { fitLayout } from "./fit-layout";

const limits = { sidebar: "sb", stage: "st", inspector: "in", sidebarMin: 200, stageMin: 480, inspectorMin: 200, rail: 44 };
const widths = (layout: Record<string, number>, window: number) => Object.fromEntries(Object.entries(layout).map(([k, v]) => [k, Math.round((v / 100) * window)]));

describe("fitLayout", () => {
  it("keeps a layout that fits", () => {
    const saved = { sb: 18, st: 49, in: 33 };
    expect(fitLayout(saved, 1440, limits)).toEqual(saved);
  });
  it("saved at 1440 px, loaded at 900: the Inspector goes to its rail and the Stage gets the room", () => {
    const fitted = widths(fitLayout({ sb: 18, st: 49, in: 33 }, 900, limits), 900);
    expect(fitted.in).toBe(44);
    expect(fitted.st).toBeGreaterThanOrEqual(480);
    expect(fitted.sb).toBe(200);
    expect(fitted.sb + fitted.st + fitted.in).toBe(900);
  });
  it("when the Inspector's rail is not enough, the Sidebar collapses too", () => {
    const fitted = widths(fitLayout({ sb: 30, st: 40, in: 30 }, 600, limits), 600);
    expect(fitted).toEqual({ sb: 44, st: 512, in: 44 });
  });
  it("the pane just opened stays: the Sidebar gives way to an Inspector the user expanded", () => {
    const fitted = widths(fitLayout({ sb: 22.3, st: 44.4, in: 33.3 }, 900, limits, "inspector"), 900);
    expect(fitted.sb).toBe(44);
    expect(fitted.in).toBe(300);
    expect(fitted.st).toBeGreaterThanOrEqual(480);
  });
  it("leaves a collapsed pane collapsed and a layout of unknown panes alone", () => {
    expect(widths(fitLayout({ sb: 3, st: 64, in: 33 }, 1440, limits), 1440)).toEqual({ sb: 43, st: 922, in: 475 });
    expect(fitLayout({ a: 50, b: 50 }, 900, limits)).toEqual({ a: 50, b: 50 });
  });
});
