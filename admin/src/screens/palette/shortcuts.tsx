// The list of keyboard shortcuts, opened with `?` (design/admin.md, The frame).
import { Dialog } from "../../ui/dialog.tsx";

const KEYS: [string, string][] = [
  ["Ctrl K or ⌘ K", "Open the command palette: go to a model, entry, media file or screen, or start an action"],
  ["?", "Show this list"],
  ["/", "Search the list (entries, media)"],
  ["j / k", "Next / previous entry in a list"],
  ["x", "Select or unselect the entry in focus"],
  ["Shift + click", "Select every entry from the last one ticked to this one"],
  ["Enter", "Open the entry in focus"],
  ["Ctrl S or ⌘ S", "Save (entry, layout, media record)"],
  ["Ctrl V or ⌘ V", "Upload the files on the clipboard (in Media)"],
  ["Esc", "Close a dialog, the menu or this list"],
];

/** The shortcuts dialog. */
export function Shortcuts({ onClose }: { onClose(): void }) {
  return (
    <Dialog open title="Keyboard shortcuts" onCancel={onClose}>
      <table className="shortcuts">
        <caption className="visually-hidden">Keys and what they do</caption>
        <thead>
          <tr>
            <th scope="col">Key</th>
            <th scope="col">What it does</th>
          </tr>
        </thead>
        <tbody>
          {KEYS.map(([key, what]) => (
            <tr key={key}>
              <th scope="row">
                <kbd>{key}</kbd>
              </th>
              <td>{what}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="toolbar">
        <button type="button" className="btn" onClick={onClose}>
          Close
        </button>
      </div>
    </Dialog>
  );
}
