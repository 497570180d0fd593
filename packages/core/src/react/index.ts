// React hooks shared by web and tui (the only place in core that imports React).
export {};
