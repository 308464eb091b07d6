import { useRef, useState, type PointerEvent, type ReactNode } from 'react';
import { isSwipeAway } from './swipe';

/**
 * A toast that can be swiped away sideways (SPEC §4, §9): react-hot-toast has no gestures, so the
 * toaster wraps each toast in this. A drag follows the pointer; letting go past 45 px or after a
 * flick dismisses, anything less springs back. Presses on the toast's buttons stay clicks.
 * `data-toast` says whether the toast is shown or leaving (dismissed, it fades for a second before
 * react-hot-toast removes it), so a check can tell a dismissed toast from one still showing.
 */
export function SwipeToDismiss({
  id,
  onDismiss,
  leaving = false,
  children,
}: {
  /** The toast's id (`data-toast-id`), to follow one toast among several alike. */
  id?: string;
  onDismiss: () => void;
  leaving?: boolean;
  children: ReactNode;
}) {
  const start = useRef<{ x: number; at: number } | null>(null);
  const [dx, setDx] = useState(0);
  const [dragging, setDragging] = useState(false);

  const end = (event: PointerEvent<HTMLDivElement>, cancelled: boolean) => {
    const from = start.current;
    start.current = null;
    setDragging(false);
    if (!from) return;
    const moved = event.clientX - from.x;
    if (!cancelled && isSwipeAway(moved, performance.now() - from.at)) onDismiss();
    else setDx(0);
  };

  return (
    <div
      data-toast={leaving ? 'leaving' : 'shown'}
      data-toast-id={id}
      data-swipe={dragging ? 'dragging' : undefined}
      style={{
        transform: dx === 0 ? undefined : `translateX(${dx}px)`,
        opacity: 1 - Math.min(Math.abs(dx) / 200, 0.5),
        transition: dragging ? 'none' : 'transform 200ms, opacity 200ms',
        touchAction: 'pan-y',
        // A drag must not select the text: a later press on selected text starts the browser's
        // own drag-and-drop, which cancels the pointer.
        userSelect: 'none',
        cursor: dragging ? 'grabbing' : undefined,
      }}
      onPointerDown={(event) => {
        if (event.button !== 0 || (event.target as Element).closest('button')) return;
        start.current = { x: event.clientX, at: performance.now() };
        setDragging(true);
        event.currentTarget.setPointerCapture(event.pointerId);
      }}
      onPointerMove={(event) => {
        if (start.current) setDx(event.clientX - start.current.x);
      }}
      onPointerUp={(event) => end(event, false)}
      onPointerCancel={(event) => end(event, true)}
      onDragStart={(event) => event.preventDefault()}
    >
      {children}
    </div>
  );
}
