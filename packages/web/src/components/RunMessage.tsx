// A request's message in red with a Contact Support link (SPEC section 8); empty messages show nothing.
import { Box, Link } from '@mui/material';
import { CONTACT_PATH } from '@portal/core';

export function RunMessage({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <Box component="span" sx={{ color: 'error.main' }}>
      {message}{' '}
      <Link href={CONTACT_PATH} target="_blank" rel="noopener" sx={{ color: 'error.main', fontWeight: 600 }}>
        Contact Support
      </Link>
    </Box>
  );
}
