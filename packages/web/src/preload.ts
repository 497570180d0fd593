// Imported first by the entry: a deep link's files (the chrome, its page, the API client's schemas) are requested
// before the rest of the entry (React, MUI) is evaluated, instead of after it.
import { preloadFirstPage } from './pages';

preloadFirstPage(window.location.pathname);
