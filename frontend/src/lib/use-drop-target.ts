import { type DragEvent, useState } from "react";

/**
 * A pane that takes dropped files: whether a drag is over it (to highlight it) and the handlers to
 * spread on its element. `onDrop` gets the drop's data (files, or folders as entries).
 */
export function useDropTarget(onDrop: (data: DataTransfer) => void) {
  const [dragging, setDragging] = useState(false);
  const handlers = {
    onDragOver: (e: DragEvent) => {
      e.preventDefault();
      e.dataTransfer.dropEffect = "copy";
      setDragging(true);
    },
    onDragLeave: (e: DragEvent) => {
      if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
    },
    onDrop: (e: DragEvent) => {
      e.preventDefault();
      setDragging(false);
      onDrop(e.dataTransfer);
    },
  };
  return { dragging, handlers };
}
