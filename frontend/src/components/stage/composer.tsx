"use client";
import { ArrowUp, Square } from "lucide-react";
import { type KeyboardEvent, useState } from "react";
import { Button } from "@/components/ui/button";

/** Enter sends, Shift+Enter adds a line; while a turn streams the button stops it. */
export function Composer({ streaming, disabled, onSend, onStop }: { streaming: boolean; disabled?: boolean; onSend: (text: string) => void; onStop: () => void }) {
  const [text, setText] = useState("");
  const send = () => {
    const message = text.trim();
    if (!message || streaming || disabled) return;
    onSend(message);
    setText("");
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      send();
    }
  };
  return (
    <div className="border-t border-zinc-200/80 bg-white p-3">
      <div className="flex items-end gap-2 rounded-xl border border-zinc-200 bg-white p-2 shadow-sm focus-within:border-klein/50 focus-within:ring-2 focus-within:ring-klein/10">
        <textarea
          data-testid="composer"
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          rows={Math.min(8, Math.max(1, text.split("\n").length))}
          placeholder="Ask the agent… (Enter to send, Shift+Enter for a new line)"
          className="max-h-48 min-h-[36px] flex-1 resize-none bg-transparent px-1.5 py-1.5 text-[14.5px] outline-none placeholder:text-zinc-400"
        />
        {streaming ? (
          <Button variant="danger" size="icon" onClick={onStop} aria-label="Stop" data-testid="stop">
            <Square className="fill-current" />
          </Button>
        ) : (
          <Button size="icon" onClick={send} disabled={!text.trim() || disabled} aria-label="Send" data-testid="send">
            <ArrowUp />
          </Button>
        )}
      </div>
    </div>
  );
}
