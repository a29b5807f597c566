"use client";
import { ChevronsDownUp, ChevronsUpDown, Network, TriangleAlert } from "lucide-react";
import { memo, useMemo, useState } from "react";
import { type MindMapNode, parseMindMap } from "@/lib/mind-map";
import { cn } from "@/lib/utils";
import { useTranslation } from "react-i18next";

/** Branch colours by first-level index, so each branch reads as one. */
const BRANCH_COLORS = ["#002fa7", "#0f766e", "#b45309", "#7c3aed", "#be123c", "#0369a1"];
const PRIORITY = /^(P[0-3])\b[\s:–-]*/;
const PRIORITY_STYLE: Record<string, string> = {
  P0: "bg-red-600 text-white",
  P1: "bg-amber-500 text-white",
  P2: "bg-zinc-500 text-white",
  P3: "bg-zinc-300 text-zinc-800",
};

function pathKey(path: number[]) {
  return path.join(".");
}

function allBranchKeys(node: MindMapNode, path: number[] = [], out: string[] = []): string[] {
  if (node.children.length > 0 && path.length > 0) out.push(pathKey(path));
  node.children.forEach((child, i) => allBranchKeys(child, [...path, i], out));
  return out;
}

interface NodeProps {
  node: MindMapNode;
  path: number[];
  color: string;
  collapsed: Set<string>;
  onToggle: (key: string) => void;
}

function MindMapBranch({ node, path, color, collapsed, onToggle }: NodeProps) {
  const { t } = useTranslation();
  const key = pathKey(path);
  const isRoot = path.length === 0;
  const folded = collapsed.has(key);
  const priority = PRIORITY.exec(node.title);
  const label = priority ? node.title.slice(priority[0].length) : node.title;
  const hasChildren = node.children.length > 0;
  return (
    <div className="mm-branch" data-testid="mindmap-node" data-depth={path.length} data-title={node.title}>
      <button
        type="button"
        disabled={!hasChildren || isRoot}
        onClick={() => onToggle(key)}
        aria-expanded={hasChildren ? !folded : undefined}
        data-tip={hasChildren && !isRoot ? (folded ? t("mindMap.showBranch") : t("mindMap.foldBranch")) : undefined}
        className={cn(
          "mm-label flex max-w-64 items-center gap-1.5 rounded-md border px-2 py-1 text-left text-[12.5px] leading-snug shadow-sm disabled:cursor-default",
          isRoot ? "border-transparent px-3 py-1.5 text-sm font-semibold text-white" : "bg-white text-zinc-800",
          hasChildren && !isRoot && "hover:bg-zinc-50",
        )}
        style={isRoot ? { background: color } : { borderColor: color, borderLeftWidth: 3 }}
      >
        {priority && <span className={cn("rounded px-1 text-[10px] font-bold", PRIORITY_STYLE[priority[1]])}>{priority[1]}</span>}
        <span className="min-w-0 break-words">{label}</span>
        {folded && (
          <span className="rounded-full bg-zinc-100 px-1.5 text-[10px] font-medium text-zinc-500" data-testid="mindmap-folded">
            +{node.children.length}
          </span>
        )}
      </button>
      {hasChildren && !folded && (
        <div className="mm-children" style={{ ["--mm-color" as string]: isRoot ? "#a1a1aa" : color }}>
          {node.children.map((child, i) => (
            <div className="mm-child" key={i}>
              <MindMapBranch node={child} path={[...path, i]} color={isRoot ? BRANCH_COLORS[i % BRANCH_COLORS.length] : color} collapsed={collapsed} onToggle={onToggle} />
            </div>
          ))}
        </div>
      )}
    </div>
  );
}

/** A `mindmap` block drawn as a tree, root on the left; every branch folds. Invalid maps say why. */
export const MindMap = memo(function MindMap({ source }: { source: string }) {
  const { t } = useTranslation();
  const parsed = useMemo(() => parseMindMap(source), [source]);
  const [collapsed, setCollapsed] = useState<Set<string>>(new Set());
  if (!parsed.ok) {
    return (
      <div data-testid="mindmap-invalid" className="rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
        <div className="flex items-center gap-1.5 font-medium">
          <TriangleAlert className="size-4" /> {t("mindMap.invalid", { detail: parsed.error })}
        </div>
        <pre className="mt-2 max-h-48 overflow-auto text-xs whitespace-pre-wrap">{source}</pre>
      </div>
    );
  }
  const toggle = (key: string) =>
    setCollapsed((current) => {
      const next = new Set(current);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  return (
    <figure data-testid="mindmap" className="my-2 overflow-hidden rounded-xl border border-zinc-200 bg-white">
      <figcaption className="flex items-center justify-between border-b border-zinc-100 px-3 py-1.5 text-xs text-zinc-500">
        <span className="flex items-center gap-1.5 font-medium text-zinc-700">
          <Network className="size-3.5 text-klein" /> {t("mindMap.title")} · {parsed.map.title}
        </span>
        <span className="flex gap-1">
          <button type="button" className="flex items-center gap-1 rounded px-1.5 py-0.5 hover:bg-zinc-100" onClick={() => setCollapsed(new Set())} data-testid="mindmap-expand-all">
            <ChevronsUpDown className="size-3.5" /> {t("mindMap.expandAll")}
          </button>
          <button
            type="button"
            className="flex items-center gap-1 rounded px-1.5 py-0.5 hover:bg-zinc-100"
            onClick={() => setCollapsed(new Set(allBranchKeys(parsed.map)))}
            data-testid="mindmap-collapse-all"
          >
            <ChevronsDownUp className="size-3.5" /> {t("mindMap.foldAll")}
          </button>
        </span>
      </figcaption>
      <div className="overflow-x-auto p-4">
        <MindMapBranch node={parsed.map} path={[]} color={BRANCH_COLORS[0]} collapsed={collapsed} onToggle={toggle} />
      </div>
    </figure>
  );
});
