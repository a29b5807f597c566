"use client";
import type { Attachment, WorkspaceFile } from "@mini-openclaw/protocol";
import { FileCode2, FileDiff, ScrollText } from "lucide-react";
import { useRef } from "react";
import { Pane } from "@/components/ui/pane";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { cn } from "@/lib/utils";
import { FileEditor } from "./file-editor";
import { AttachmentView } from "./attachment-view";
import { PictureView } from "./picture-view";
import { EXTRACTED_SOURCE, ExtractedSource } from "./extracted-source";
import { PromptView } from "./prompt-view";
import { ChangeDiff, type OpenChange } from "./change-diff";
import { ChangesList } from "./changes-list";
import { CollapseButton } from "../ui/collapse-button";
import { useTranslation } from "react-i18next";

export type InspectorTab = "files" | "prompt" | "changes";

interface InspectorProps {
  tab: InspectorTab;
  onTab: (tab: InspectorTab) => void;
  files: WorkspaceFile[];
  openPath: string | null;
  /** Bumped each time a file is opened: opening the open file again reads it again (it may have been made meanwhile). */
  openCount: number;
  /** A message's attachment, open instead of a file. */
  openAttachment: Attachment | null;
  /** A picture the Stage opened (a browser step's screenshot), instead of a file. */
  openPicture: { src: string; title: string } | null;
  onOpenFile: (path: string) => void;
  onSaved: (path: string) => void;
  sessionId: string | null;
  diskChanges: Record<string, number>;
  /** A line of the open file to scroll to and mark (a cited passage). */
  reveal?: { path: string; line: number; nonce: number } | null;
  /** One file of one call's changes, shown as a diff with Revert. */
  openChange: OpenChange | null;
  onOpenChange: (change: string, path: string) => void;
  onReverted: (path: string) => void;
  /** Collapse the Inspector to its rail. */
  onCollapse: () => void;
}


export function Inspector({ tab, onTab, files, openPath, openCount, openAttachment, openPicture, onOpenFile, onSaved, sessionId, diskChanges, reveal, openChange, onOpenChange, onReverted, onCollapse }: InspectorProps) {
  const { t } = useTranslation();
  const drafts = useRef(new Map<string, { saved: string; text: string }>()).current;
  const groups = new Map<WorkspaceFile["group"], WorkspaceFile[]>();
  for (const file of files) groups.set(file.group, [...(groups.get(file.group) ?? []), file]);
  return (
    <Pane data-testid="inspector">
      <Tabs value={tab} onValueChange={(v) => onTab(v as InspectorTab)} className="flex h-full min-h-0 flex-col">
        <div className="flex h-11 shrink-0 items-center border-b border-zinc-200/80 px-3">
          <TabsList>
            <TabsTrigger value="files" data-testid="tab-files">
              <FileCode2 />
              {t("inspector.files")}
            </TabsTrigger>
            <TabsTrigger value="prompt" data-testid="tab-prompt">
              <ScrollText />
              {t("inspector.prompt")}
            </TabsTrigger>
            <TabsTrigger value="changes" data-testid="tab-changes">
              <FileDiff />
              {t("inspector.changes")}
            </TabsTrigger>
          </TabsList>
          <span className="ml-auto">
            <CollapseButton side="right" onClick={onCollapse} />
          </span>
        </div>
        <TabsContent value="files" className="flex min-h-0 flex-col data-[state=inactive]:hidden">
          <div className="max-h-[34%] shrink-0 overflow-y-auto border-b border-zinc-200/80 px-2 py-1.5" data-testid="file-list">
            {[...groups].map(([group, list]) => (
              <div key={group} className="py-1">
                <div className="px-1 pb-0.5 text-[10.5px] font-semibold uppercase tracking-wide text-zinc-500">{t(`inspector.group.${group}`)}</div>
                {list.map((f) => (
                  <button
                    key={f.path}
                    type="button"
                    data-testid="file-item"
                    data-path={f.path}
                    onClick={() => onOpenFile(f.path)}
                    className={cn(
                      "block w-full truncate rounded px-1.5 py-0.5 text-left font-mono text-[12px]",
                      openPath === f.path && !openAttachment && !openPicture ? "bg-klein-50 text-klein" : "text-zinc-700 hover:bg-zinc-50",
                    )}
                  >
                    {/* Settings files sit at the top of the data root: their whole name (APPROVALS.json). */}
                    {group === "settings" ? f.path : f.path.slice(group.length + 1)}
                  </button>
                ))}
              </div>
            ))}
          </div>
          <div className="min-h-0 flex-1">
            {openPicture ? (
              <PictureView key={openPicture.src} src={openPicture.src} title={openPicture.title} />
            ) : openAttachment ? (
              <AttachmentView key={openAttachment.id} attachment={openAttachment} />
            ) : openPath && EXTRACTED_SOURCE.test(openPath) ? (
              <ExtractedSource key={openPath} path={openPath} reveal={reveal?.path === openPath ? reveal : null} />
            ) : openPath ? (
              <FileEditor
                key={`${openPath}#${openCount}`}
                path={openPath}
                drafts={drafts}
                onSaved={onSaved}
                diskVersion={diskChanges[openPath] ?? 0}
                reveal={reveal?.path === openPath ? reveal : null}
              />
            ) : (
              <div className="p-4 text-sm text-zinc-500">{t("inspector.openFileHint")}</div>
            )}
          </div>
        </TabsContent>
        <TabsContent value="prompt" className="data-[state=inactive]:hidden">
          <PromptView sessionId={sessionId} />
        </TabsContent>
        <TabsContent value="changes" className="flex min-h-0 flex-1 flex-col data-[state=inactive]:hidden">
          {sessionId && <ChangesList sessionId={sessionId} open={openChange} onOpen={onOpenChange} />}
          {openChange ? (
            <ChangeDiff key={`${openChange.change}:${openChange.path}`} open={openChange} onReverted={onReverted} />
          ) : (
            <div className="p-4 text-sm text-zinc-500">{t("inspector.pickChangeHint")}</div>
          )}
        </TabsContent>
      </Tabs>
    </Pane>
  );
}
