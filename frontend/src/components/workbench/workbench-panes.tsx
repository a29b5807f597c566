"use client";
import { PanelLeftOpen, PanelRightOpen } from "lucide-react";
import { type MutableRefObject, type ReactNode, useCallback, useEffect, useRef, useState } from "react";
import { Group, Panel, Separator, useDefaultLayout, useGroupRef, usePanelRef } from "react-resizable-panels";
import { fitLayout } from "@/lib/fit-layout";
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
const STORAGE_KEY = "moc.panes";
const PANE_LIMITS = { sidebar: "sidebar-panel", stage: "stage-panel", inspector: "inspector-panel", sidebarMin: SIDE_MIN_PX, stageMin: STAGE_MIN_PX, inspectorMin: SIDE_MIN_PX, rail: RAIL_PX };

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

/** The button a pane shows to collapse itself. */
/** localStorage, and nothing while the page is prerendered (there is no window then). */
const browserStorage = {
  getItem: (key: string) => (typeof window === "undefined" ? null : window.localStorage.getItem(key)),
  setItem: (key: string, value: string) => {
    if (typeof window !== "undefined") window.localStorage.setItem(key, value);
  },
};

/**
 * The three panes: Sidebar and Inspector collapse to a rail and back, and resize; the Stage takes the
 * room and never goes under 480 px. Sizes and collapsed panes persist across reloads (localStorage).
 * Under 800 px the Sidebar is a drawer over the Stage. At 1024 px or less the Inspector starts
 * collapsed when no layout was saved.
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
  const { defaultLayout: savedLayout, onLayoutChanged } = useDefaultLayout({ id: STORAGE_KEY, storage: browserStorage });
  const [collapsed, setCollapsed] = useState({ sidebar: false, inspector: false });
  const [narrow, setNarrow] = useState(false);
  const [drawer, setDrawer] = useState(false);

  const look = useCallback(() => {
    setCollapsed({ sidebar: sidebarRef.current?.isCollapsed() ?? false, inspector: inspectorRef.current?.isCollapsed() ?? false });
  }, [sidebarRef, inspectorRef]);

  // Saved sizes are the user's wish, the window is the fact: whenever the Stage would be narrower than its
  // least width (a window made smaller), a side pane gives way, the Inspector first.
  const stageBox = useRef<HTMLDivElement>(null);
  const fitting = useRef(0);
  /** The side pane the user opened last. */
  const opened = useRef<"sidebar" | "inspector" | null>(null);
  const expand = useCallback(
    (pane: "sidebar" | "inspector") => {
      opened.current = pane;
      (pane === "sidebar" ? sidebarRef : inspectorRef).current?.expand();
    },
    [sidebarRef, inspectorRef],
  );
  const fit = useCallback(() => {
    cancelAnimationFrame(fitting.current);
    fitting.current = requestAnimationFrame(() => {
      // The Group's own layout, fitted to the window: an open pane under its least width is widened to
      // it (the library would collapse it), and when the Stage lacks room a side pane goes to its rail.
      const group = groupRef.current;
      if (!group) return;
      const current = group.getLayout();
      const fitted = fitLayout(current, window.innerWidth, PANE_LIMITS, opened.current);
      if (Object.keys(fitted).some((id) => Math.abs(fitted[id] - current[id]) > 0.05)) group.setLayout(fitted);
      look();
    });
  }, [groupRef, look]);

  useEffect(() => {
    const measure = () => {
      setNarrow(window.innerWidth < DRAWER_BELOW_PX);
      fit();
    };
    // The saved sizes are applied once the page has hydrated (the built HTML has the default sizes, and
    // hydration keeps the built styles), fitted to this window: saved at 1440 px, they do not fit 900.
    if (savedLayout) groupRef.current?.setLayout(fitLayout(savedLayout, window.innerWidth, PANE_LIMITS));
    measure();
    if (!savedLayout && window.innerWidth <= INSPECTOR_COLLAPSED_AT_PX) {
      inspectorRef.current?.collapse();
      // The first layout had no room for all three and gave way on the Sidebar: it comes back now.
      if (window.innerWidth >= DRAWER_BELOW_PX) sidebarRef.current?.expand();
    }
    look();
    window.addEventListener("resize", measure);
    return () => window.removeEventListener("resize", measure);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, at mount: the first layout (a later resize has its own handler)
  }, []);
  // Narrow: the Sidebar's panel is a rail, and its content opens as a drawer instead.
  useEffect(() => {
    if (narrow) sidebarRef.current?.collapse();
    else setDrawer(false);
    look();
  }, [narrow, sidebarRef, look]);

  useEffect(() => {
    if (showInspector > 0 && inspectorRef.current?.isCollapsed()) expand("inspector");
  }, [showInspector, inspectorRef, expand]);

  // The Stage's own width, watched: a window resize keeps the panes' percentages (no layout change), so
  // only the Stage's box says when it got too narrow.
  useEffect(() => {
    const box = stageBox.current;
    if (!box) return;
    const observer = new ResizeObserver(() => fit());
    observer.observe(box);
    return () => observer.disconnect();
  }, [fit]);

  if (toggles) {
    toggles.current = {
      toggleSidebar: () => {
        if (narrow) setDrawer((open) => !open);
        else if (sidebarRef.current?.isCollapsed()) expand("sidebar");
        else sidebarRef.current?.collapse();
      },
      toggleInspector: () => (inspectorRef.current?.isCollapsed() ? expand("inspector") : inspectorRef.current?.collapse()),
    };
  }

  const expandSidebar = () => (narrow ? setDrawer(true) : expand("sidebar"));
  const sidebarControls: PaneControls = { collapse: () => (narrow ? setDrawer(false) : sidebarRef.current?.collapse()) };
  const inspectorControls: PaneControls = { collapse: () => inspectorRef.current?.collapse() };

  return (
    <>
      <Group
        orientation="horizontal"
        className="min-h-0 flex-1"
        groupRef={groupRef}
        onLayoutChanged={(layout, meta) => {
          onLayoutChanged(layout, meta);
          look();
          fit();
        }}
      >
        <Panel id="sidebar-panel" panelRef={sidebarRef} defaultSize="260px" minSize={`${SIDE_MIN_PX}px`} maxSize="35" collapsible collapsedSize={RAIL} onResize={look}>
          {(collapsed.sidebar || narrow) && <Rail side="left" onExpand={expandSidebar} />}
          {/* Kept mounted while collapsed: what it holds (a search typed, a view's state) stays. */}
          <div className={cn("h-full", (collapsed.sidebar || narrow) && "hidden")}>{!narrow && sidebar(sidebarControls)}</div>
        </Panel>
        <ResizeHandle />
        <Panel id="stage-panel" minSize={`${STAGE_MIN_PX}px`}>
          <div ref={stageBox} className="h-full min-w-0">
            {stage}
          </div>
        </Panel>
        <ResizeHandle />
        <Panel id="inspector-panel" panelRef={inspectorRef} defaultSize="33%" minSize={`${SIDE_MIN_PX}px`} collapsible collapsedSize={RAIL} onResize={look}>
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
