"use client";
import type { SkillInfo, SkillsReply } from "@mini-openclaw/protocol";
import { ChevronRight, PackagePlus, Sparkles } from "lucide-react";
import { useRef, useState } from "react";
import { SearchBox } from "@/components/ui/search-box";
import { api } from "@/lib/api";
import { archivesFromDrop, type DroppedArchive } from "@/lib/skill-drop";
import { useDropTarget } from "@/lib/use-drop-target";
import { cn } from "@/lib/utils";
import { FileButton } from "./file-button";
import { ProblemCard, WarningLine } from "@/components/ui/problem-card";
import { Trans, useTranslation } from "react-i18next";

interface SkillsViewProps {
  skills: SkillsReply | null;
  openPath: string | null;
  onOpenFile: (path: string) => void;
  /** Strips `./backend` from a snapshot location: the Inspector opens data-root paths. */
  toPath: (location: string) => string;
  /** After an install: the list is fetched again. */
  onInstalled: () => void;
  onToast: (message: string, level?: "info" | "warning") => void;
}

const matches = (query: string, ...texts: string[]) => texts.some((t) => t.toLowerCase().includes(query));

/**
 * The Skills pane: counts, then what needs attention (rejected skills, then skills with warnings),
 * then the rest; a filter; each skill's files folded under it; a drop zone for `.zip`/`.skill`
 * archives and folders, installed into skills/.
 */
export function SkillsView({ skills, openPath, onOpenFile, toPath, onInstalled, onToast }: SkillsViewProps) {
  const { t } = useTranslation();
  const [query, setQuery] = useState("");
  const [installing, setInstalling] = useState(false);
  const picker = useRef<HTMLInputElement>(null);

  async function install(archives: DroppedArchive[]) {
    setInstalling(true);
    try {
      for (const { archive, filename } of archives) {
        try {
          const { installed } = await api.installSkill(archive, filename);
          onToast(t("skills.toast.installed", { skills: installed.map((f) => `skills/${f}`).join(", "), file: filename }));
        } catch (err) {
          onToast(t("skills.toast.notInstalled", { file: filename, detail: (err as Error).message }), "warning");
        }
      }
    } finally {
      setInstalling(false);
      onInstalled();
    }
  }

  const drop = useDropTarget((data) =>
    void archivesFromDrop(data).then(
      async ({ archives, refused }) => {
        if (refused.length) onToast(t("skills.toast.refused", { files: refused.join(", ") }), "warning");
        if (archives.length) await install(archives);
      },
      (err: Error) => onToast(t("skills.toast.unreadable", { detail: err.message }), "warning"),
    ),
  );

  if (!skills) return <div className="p-2 text-xs text-zinc-500">{t("skills.loading")}</div>;
  const q = query.trim().toLowerCase();
  const problems = skills.problems.filter((p) => !q || matches(q, p.folder, p.reason));
  const shown = skills.skills.filter((s) => !q || matches(q, s.name, s.description, ...s.warnings, ...s.tags));
  const ordered = [...shown.filter((s) => s.warnings.length > 0), ...shown.filter((s) => s.warnings.length === 0)];
  const withWarnings = skills.skills.filter((s) => s.warnings.length > 0).length;
  const { list } = skills;

  return (
    <div
      className={cn("relative min-h-full space-y-2 rounded-lg", drop.dragging && "bg-klein-50 ring-2 ring-klein-100 ring-inset")}
      data-testid="skills-list"
      {...drop.handlers}
    >
      <div className="flex items-center justify-between gap-2 px-1 text-[11px] text-zinc-500" data-testid="skills-counts">
        <span>
          <Trans
            i18nKey="skills.counts"
            values={{ loaded: skills.skills.length, warned: withWarnings, rejected: skills.problems.length }}
            components={{ n: <b className="text-zinc-700" />, w: <b className={withWarnings ? "text-amber-700" : "text-zinc-700"} />, r: <b className={skills.problems.length ? "text-red-700" : "text-zinc-700"} /> }}
          />
        </span>
        <button
          type="button"
          data-testid="skills-install"
          disabled={installing}
          onClick={() => picker.current?.click()}
          data-tip={t("skills.installTip")}
          className="flex items-center gap-1 rounded px-1.5 py-0.5 text-klein hover:bg-klein-50 disabled:opacity-50"
        >
          <PackagePlus className="size-3.5" />
          {installing ? t("skills.installing") : t("skills.install")}
        </button>
        <input
          ref={picker}
          type="file"
          accept=".zip,.skill"
          multiple
          hidden
          data-testid="skills-install-input"
          onChange={(e) => {
            const files = [...(e.target.files ?? [])];
            e.target.value = "";
            void install(files.map((file) => ({ archive: file, filename: file.name })));
          }}
        />
      </div>
      {(list.shortened.length > 0 || list.omitted.length > 0) && (
        <div className="rounded-md border border-amber-200 bg-amber-50 px-2 py-1.5 text-[11px] leading-relaxed text-amber-800" data-testid="skills-list-note">
          {t("skills.overBudget", { count: list.budget_chars })}{" "}
          {list.shortened.length > 0 && t("skills.shortened", { count: list.shortened.length })}
          {list.shortened.length > 0 && list.omitted.length > 0 && t("common.listSeparator")}
          {list.omitted.length > 0 && <span data-tip={list.omitted.join(", ")}>{t("skills.omitted", { count: list.omitted.length })}</span>}
        </div>
      )}
      <SearchBox value={query} onChange={setQuery} placeholder={t("skills.filter")} testId="skills-filter" />
      {problems.map((p) => (
        <ProblemCard key={p.folder} title={p.folder} reason={p.reason} testId="skill-problem" onOpen={() => onOpenFile(toPath(p.location))} />
      ))}
      {ordered.map((skill) => (
        <SkillCard key={skill.name} skill={skill} path={toPath(skill.location)} openPath={openPath} onOpenFile={onOpenFile} />
      ))}
      {q && problems.length + ordered.length === 0 && <div className="px-2 py-3 text-center text-xs text-zinc-500">{t("skills.noMatch", { query })}</div>}
      <p className="px-1 pt-1 text-[11px] leading-relaxed text-zinc-500">
        {t("skills.dropHint")}
      </p>
    </div>
  );
}

function SkillCard({ skill, path, openPath, onOpenFile }: { skill: SkillInfo; path: string; openPath: string | null; onOpenFile: (path: string) => void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const files = skill.references;
  return (
    <div data-testid="skill-card" data-skill={skill.name}>
      <button
        type="button"
        data-testid="skill-item"
        onClick={() => onOpenFile(path)}
        className={cn("block w-full rounded-lg border px-2.5 py-2 text-left", openPath === path ? "border-klein-100 bg-klein-50" : "border-zinc-200 hover:bg-zinc-50")}
      >
        <div className="flex items-center gap-1.5 font-mono text-[13px] font-semibold text-zinc-800">
          <Sparkles className="size-3.5 text-klein" />
          {skill.name}
        </div>
        <div className="mt-1 line-clamp-3 text-xs text-zinc-500">{skill.description}</div>
        {skill.warnings.map((w) => (
          <WarningLine key={w} text={w} testId="skill-warning" />
        ))}
      </button>
      {files.length > 0 && (
        <button
          type="button"
          data-testid="skill-files-toggle"
          aria-expanded={open}
          onClick={() => setOpen(!open)}
          className="ml-2 mt-0.5 flex items-center gap-1 px-1 text-[11px] text-zinc-500 hover:text-zinc-800"
        >
          <ChevronRight className={cn("size-3 transition-transform", open && "rotate-90")} />
          {t("skills.files", { count: files.length })}
        </button>
      )}
      {open && (
        <div className="ml-3 mt-1 border-l border-zinc-200 pl-1" data-testid="skill-references">
          {files.map((ref) => (
            <FileButton key={ref} path={ref} label={ref.split("/").slice(2).join("/")} active={openPath === ref} onOpen={onOpenFile} />
          ))}
        </div>
      )}
    </div>
  );
}
