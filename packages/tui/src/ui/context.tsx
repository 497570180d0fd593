// What screens share besides core's hooks: navigation by path, labels for crumbs, key capture, and terminal IO.
import { createContext, useContext, useEffect } from 'react';
import { printable, type ScreenDef, type ScreenParams, type StartDismissStore } from '@portal/core';

/**
 * Who owns the keyboard: 'none' lets the app handle q, Tab and Esc; 'text' (a form is being typed into) keeps Esc
 * for going back but gives letters and Tab to the form; 'all' (an inline edit, a filter, a confirmation) gives
 * every key to the screen, whose Esc cancels.
 */
export type Capture = 'none' | 'text' | 'all';

export interface UiIo {
  /** Copies to the clipboard; by default the OSC 52 escape sequence (works over SSH) plus the value printed. */
  copy?(text: string): Promise<void>;
  /** Writes a file in the current folder; resolves to its path. */
  saveFile(name: string, text: string): Promise<string>;
  /** The folder local paths are read from (uploads). */
  cwd: string;
  /** The API base, for the installer command, contact page and example. */
  baseUrl: string;
  /** Remembers the account and project last opened (the CLI's defaults). */
  remember?(key: 'client' | 'project', value: string): void;
  /** Where the "Get started" path is kept put away (the config file); for this run only when not given. */
  startDismissals?: StartDismissStore;
}

export interface Nav {
  path: string;
  screen: ScreenDef;
  params: ScreenParams;
  /** Query values of the path (reset-password?token=...). */
  query: URLSearchParams;
  go(path: string): void;
  back(): void;
  /** Replaces the whole history (sign-in, sign-out). */
  reset(path: string): void;
  labels: Record<string, string>;
  setLabel(id: string | undefined, name: string | undefined): void;
  capture: Capture;
  /** A form on this screen was submitted: going back skips this screen. */
  markSubmitted(): void;
  /** The terminal's size, and the columns the side menu takes from it. */
  size: { columns: number; rows: number; menu: number };
  /**
   * Gives Esc something to clear before it goes back (a list's applied filter): Esc calls `clear` instead, until the
   * returned function withdraws it.
   */
  claimEscape(clear: () => void): () => void;
  /** True while the menu has the keyboard: screens ignore keys then. */
  menuFocused: boolean;
  setCapture(c: Capture): void;
  /** Replaces the screen's key help line (a screen whose keys change with what it shows); null gives it back. */
  setHelp(text: string | null): void;
  /** copy(text, what): copies and shows `Copied: <what>` (the text itself when `what` is not given). */
  io: UiIo & { copy(text: string, what?: string): Promise<void> };
  quit(): void;
}

/** The side menu's width (ui/Menu.tsx), taken from the screen's width. */
export const MENU_WIDTH = 26;
/** Narrower than this, the side menu folds away (shown in the screen's place on Tab or Ctrl+O). */
export const MENU_FOLDS_BELOW = 100;

export const NavContext = createContext<Nav | null>(null);

export function useNav(): Nav {
  const nav = useContext(NavContext);
  if (!nav) throw new Error('Screens render inside <App>.');
  return nav;
}

/** Claims the keyboard while `active` (e.g. while a field is being edited). */
export function useCapture(mode: Capture, active = true): void {
  const { setCapture } = useNav();
  useEffect(() => {
    if (!active) return;
    setCapture(mode);
    return () => setCapture('none');
  }, [mode, active, setCapture]);
}

/** The key help line while this screen shows it (its keys change with what it shows). */
export function useHelp(text: string): void {
  const { setHelp } = useNav();
  useEffect(() => {
    setHelp(text);
    return () => setHelp(null);
  }, [text, setHelp]);
}

/** Names an id for the breadcrumbs and the menu. */
export function useLabel(id: string | undefined, name: string | undefined): void {
  const { setLabel } = useNav();
  // A name from the server, shown in the header: escaped like every table cell.
  useEffect(() => setLabel(id, name === undefined ? name : printable(name)), [id, name, setLabel]);
}
