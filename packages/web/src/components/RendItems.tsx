// The files of an upload group: name, size, state, and the error of items Failed or with meta.proc 2.
import { Box, Typography } from '@mui/material';
import { formatSize, uploadItemError, type Rend } from '@portal/core';

export function RendItems({ rend }: { rend: Rend }) {
  return (
    <Box component="ul" sx={{ m: 0, pl: 2 }}>
      {rend.upload.list.map((item) => {
        const error = uploadItemError(item);
        return (
          <li key={item.stamp}>
            <Typography variant="body2" component="span" sx={{ overflowWrap: 'anywhere' }}>
              {item.name} ({formatSize(item.file.size)}): {item.state}
            </Typography>
            {error && (
              <Typography variant="body2" sx={{ color: 'error.main' }}>
                {error}
              </Typography>
            )}
          </li>
        );
      })}
    </Box>
  );
}
