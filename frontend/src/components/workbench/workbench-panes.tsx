"use client";
import { PanelLeftOpen, PanelRightOpen } from "lucide-react";
import { type MutableRefObject, type ReactNode, useCallback, useEffect, useRef, useState } from "react";
import { Group, type Layout, Panel, Separator, useGroupRef, usePanelRef } from "react-resizable-panels";
import { layoutFor, type PaneWish, parseWish, wishAfterDrag } from "@/lib/pane-layout";
import { cn } from "@/lib/utils";
import { useTranslation } from "react-i18next";

/** Under this width the Sidebar is a drawer over the Stage, which keeps the whole width. */
export const DRAWER_BELOW_PX = 800;
/** At this width or less, the Inspector starts collapsed (until the user says otherwise). */
export const INSPECTOR_COLLAPSED_AT_PX = 1024;
/** A collapsed pane's rail, and a side pane's least width when open. */
const RAIL_PX = 44;
const SIDE_MIN_PX = 200;
const RAIL = `${RAIL_PX}px`;
/** The Stage's least width: below it a side pane collapses, the Inspector first. */
export const STAGE_MIN_PX = 480;
const SIDEBAR_DEFAULT_PX = 260;
const SIDEBAR_MAX_PERCENT = 35;
const INSPECTOR_DEFAULT_PERCENT = 33;
/** What the user chose (widths in px, panes open or not), kept in this browser. */
const STORAGE_KEY = "moc.panes.wish";
const PANE_LIMITS = {
  sidebar: "sidebar-panel",
  stage: "stage-panel",
  inspector: "inspector-panel",
  sidebarMin: SIDE_MIN_PX,
  stageMin: STAGE_MIN_PX,
  inspectorMin: SIDE_MIN_PX,
  sidebarMaxPercent: SIDEBAR_MAX_PERCENT,
  rail: RAIL_PX,
  drawerBelow: DRAWER_BELOW_PX,
  inspectorCollapsedAt: INSPECTOR_COLLAPSED_AT_PX,
  sidebarDefault: SIDEBAR_DEFAULT_PX,
  inspectorDefaultPercent: INSPECTOR_DEFAULT_PERCENT,
};

/** What the rest of the page (the command palette) can do to the panes. */
export interface PaneToggles {
  toggleSidebar: () => void;
  toggleInspector: () => void;
}

export interface PaneControls {
  /** Collapse this pane to its rail (or close the drawer). */
  collapse: () => void;
}

function ResizeHandle() {
  return <Separator className="w-px bg-zinc-200 transition-colors hover:bg-klein/40 data-[separator=active]:bg-klein/60" />;
}

/** A collapsed pane: a rail at most 64 px wide with the button that brings it back. */
function Rail({ side, onExpand }: { side: "left" | "right"; onExpand: () => void }) {
  const Icon = side === "left" ? PanelLeftOpen : PanelRightOpen;
  const { t } = useTranslation();
  const label = side === "left" ? t("panes.expandSidebar") : t("panes.expandInspector");
  return (
    <div className={cn("flex h-full flex-col items-center bg-white py-2", side === "left" ? "border-r border-zinc-200/80" : "border-l border-zinc-200/80")} data-testid={side === "left" ? "sidebar-rail" : "inspector-rail"}>
      <button type="button" aria-label={label} onClick={onExpand} className="rounded-md p-1.5 text-zinc-500 hover:bg-zinc-100 hover:text-zinc-800">
        <Icon className="size-4" />
      </button>
    </div>
  );
}

const loadWish = (): PaneWish => parseWish(window.localStorage.getItem(STORAGE_KEY));
const saveWish = (wish: PaneWish) => window.localStorage.setItem(STORAGE_KEY, JSON.stringify(wish));

/**
 * The three panes: Sidebar and Inspector collapse to a rail and back, and resize; the Stage takes the
 * room and never goes under 480 px. What the user chose (widths, collapsed panes) persists across
 * reloads (localStorage) and the layout is made from it for the window there is (lib/pane-layout.ts):
 * a window made narrow sends panes to their rails, made wide again brings them back as they were.
 * Under 800 px the Sidebar is a drawer over the Stage. At 1024 px or less the Inspector starts
 * collapsed until the user opens or closes it.
 */
export function WorkbenchPanes({
  sidebar,
  stage,
  inspector,
  showInspector,
  toggles,
}: {
  sidebar: (c: PaneControls) => ReactNode;
  stage: ReactNode;
  inspector: (c: PaneControls) => ReactNode;
  /** Bumped when something opens in the Inspector (a file, a diff, a citation): a collapsed one expands. */
  showInspector: number;
  /** Filled with the panes' toggles (for the command palette). */
  toggles?: MutableRefObject<PaneToggles | null>;
}) {
  const { t } = useTranslation();
  const sidebarRef = usePanelRef();
  const inspectorRef = usePanelRef();
  const groupRef = useGroupRef();
  const [collapsed, setCollapsed] = useState({ sidebar: false, inspector: false });
  const [narrow, setNarrow] = useState(false);
  const [drawer, setDrawer] = useState(false);

  const look = useCallback(() => {
    setCollapsed({ sidebar: sidebarRef.current?.isCollapsed() ?? false, inspector: inspectorRef.current?.isCollapsed() ?? false });
  }, [sidebarRef, inspectorRef]);

  const wish = useRef<PaneWish | null>(null);
  /** The layout last shown: a drag's start. */
  const shown = useRef<Layout | null>(null);
  /** The side pane the user opened last: when the Stage lacks room, the other gives way. */
  const opened = useRef<"sidebar" | "inspector" | null>(null);
  const fitting = useRef(0);
  // The layout is always made from the wish for this window (never from the last layout, which a narrow window changed).
  const apply = useCallback(() => {
    cancelAnimationFrame(fitting.current);
    fitting.current = requestAnimationFrame(() => {
      const group = groupRef.current;
      if (!group || !wish.current) return;
      const layout = layoutFor(wish.current, window.innerWidth, PANE_LIMITS, opened.current);
      const current = group.getLayout();
      if (Object.keys(layout).some((id) => Math.abs(layout[id] - (current[id] ?? 0)) > 0.05)) group.setLayout(layout);
      shown.current = layout;
      look();
    });
  }, [groupRef, look]);
  const choose = useCallback(
    (change: Partial<PaneWish>, pane: "sidebar" | "inspector" | null = null) => {
      if (!wish.current) return;
      wish.current = { ...wish.current, ...change };
      saveWish(wish.current);
      if (pane) opened.current = pane;
      apply();
    },
    [apply],
  );
  const expand = useCallback((pane: "sidebar" | "inspector") => choose(pane === "sidebar" ? { sidebarOpen: true } : { inspectorOpen: true }, pane), [choose]);
  const collapse = useCallback((pane: "sidebar" | "inspector") => choose(pane === "sidebar" ? { sidebarOpen: false } : { inspectorOpen: false }), [choose]);

  useEffect(() => {
    // Applied once the page has hydrated (the built HTML has the default sizes).
    wish.current = loadWish();
    const measure = () => {
      setNarrow(window.innerWidth < DRAWER_BELOW_PX);
      apply();
    };
    measure();
    window.addEventListener("resize", measure);
    return () => window.removeEventListener("resize", measure);
  }, [apply]);
  useEffect(() => {
    if (!narrow) setDrawer(false);
  }, [narrow]);

  useEffect(() => {
    if (showInspector > 0 && inspectorRef.current?.isCollapsed()) expand("inspector");
  }, [showInspector, inspectorRef, expand]);

  if (toggles) {
    toggles.current = {
      toggleSidebar: () => {
        if (narrow) setDrawer((open) => !open);
        else if (sidebarRef.current?.isCollapsed()) expand("sidebar");
        else collapse("sidebar");
      },
      toggleInspector: () => (inspectorRef.current?.isCollapsed() ? expand("inspector") : collapse("inspector")),
    };
  }

  const expandSidebar = () => (narrow ? setDrawer(true) : expand("sidebar"));
  const sidebarControls: PaneControls = { collapse: () => (narrow ? setDrawer(false) : collapse("sidebar")) };
  const inspectorControls: PaneControls = { collapse: () => collapse("inspector") };

  return (
    <>
      <Group
        orientation="horizontal"
        className="min-h-0 flex-1"
        groupRef={groupRef}
        onLayoutChanged={(layout, meta) => {
          // A separator dragged (or moved by keyboard) is the user's choice of widths; any other change is ours.
          if (meta.isUserInteraction && wish.current && shown.current) {
            wish.current = wishAfterDrag(wish.current, shown.current, layout, window.innerWidth, PANE_LIMITS);
            saveWish(wish.current);
            shown.current = layout;
          }
          look();
        }}
      >
        <Panel id="sidebar-panel" panelRef={sidebarRef} defaultSize={`${SIDEBAR_DEFAULT_PX}px`} minSize={`${SIDE_MIN_PX}px`} maxSize={`${SIDEBAR_MAX_PERCENT}`} collapsible collapsedSize={RAIL} onResize={look}>
          {(collapsed.sidebar || narrow) && <Rail side="left" onExpand={expandSidebar} />}
          {/* Kept mounted while collapsed: what it holds (a search typed, a view's state) stays. */}
          <div className={cn("h-full", (collapsed.sidebar || narrow) && "hidden")}>{!narrow && sidebar(sidebarControls)}</div>
        </Panel>
        <ResizeHandle />
        <Panel id="stage-panel" minSize={`${STAGE_MIN_PX}px`}>
          <div className="h-full min-w-0">
            {stage}
          </div>
        </Panel>
        <ResizeHandle />
        <Panel id="inspector-panel" panelRef={inspectorRef} defaultSize={`${INSPECTOR_DEFAULT_PERCENT}%`} minSize={`${SIDE_MIN_PX}px`} collapsible collapsedSize={RAIL} onResize={look}>
          {collapsed.inspector && <Rail side="right" onExpand={() => expand("inspector")} />}
          {/* Kept mounted while collapsed: an unsaved edit in the editor stays. */}
          <div className={cn("h-full", collapsed.inspector && "hidden")}>{inspector(inspectorControls)}</div>
        </Panel>
      </Group>
      {narrow && drawer && (
        <div className="fixed inset-0 z-40" data-testid="sidebar-drawer">
          <button type="button" aria-label={t("panes.closeDrawer")} className="absolute inset-0 bg-zinc-900/20" onClick={() => setDrawer(false)} />
          <div className="absolute inset-y-0 left-0 w-[300px] max-w-[85vw] shadow-2xl">{sidebar(sidebarControls)}</div>
        </div>
      )}
    </>
  );
}
