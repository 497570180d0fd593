// The top bar's light/dark switch; the choice is remembered (lib/colorScheme).
import { IconButton, SvgIcon, Tooltip } from '@mui/material';
import { useColorScheme } from '../lib/colorScheme';

export function ColorSchemeToggle() {
  const { scheme, toggle } = useColorScheme();
  const label = scheme === 'dark' ? 'Use light theme' : 'Use dark theme';
  return (
    <Tooltip title={label}>
      <IconButton color="inherit" onClick={toggle} aria-label={label} aria-pressed={scheme === 'dark'}>
        <SvgIcon fontSize="small" aria-hidden="true">
          {scheme === 'dark' ? (
            <path d="M12 7a5 5 0 1 0 0 10 5 5 0 0 0 0-10zM11 1h2v3h-2zm0 19h2v3h-2zM1 11h3v2H1zm19 0h3v2h-3zM4.2 5.6l1.4-1.4 2.1 2.1-1.4 1.4zm12.1 12.1 1.4-1.4 2.1 2.1-1.4 1.4zM4.2 18.4l2.1-2.1 1.4 1.4-2.1 2.1zM16.3 6.3l2.1-2.1 1.4 1.4-2.1 2.1z" />
          ) : (
            <path d="M12 3a9 9 0 1 0 9 9c0-.46-.04-.92-.1-1.36A5.39 5.39 0 0 1 12.5 4.1 9 9 0 0 0 12 3z" />
          )}
        </SvgIcon>
      </IconButton>
    </Tooltip>
  );
}
