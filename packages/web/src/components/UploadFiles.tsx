// The files of an upload group: name, size, state, and the error of items Failed or with meta.proc 2.
import { useState } from 'react';
import { Box, Link, Typography } from '@mui/material';
import { formatSize, uploadItemError, type Upload } from '@portal/core';
import { UploadPreviewDialog } from './UploadPreviewDialog';

export function UploadFiles({ upload }: { upload: Upload }) {
  const [shown, setShown] = useState<{ stamp: string; name: string } | null>(null);
  return (
    <Box component="ul" sx={{ m: 0, pl: 2 }}>
      <UploadPreviewDialog upload={shown?.stamp ?? null} name={shown?.name ?? ''} onClose={() => setShown(null)} />
      {upload.upload.list.map((item) => {
        const error = uploadItemError(item);
        return (
          <li key={item.stamp}>
            <Typography variant="body2" component="span" sx={{ overflowWrap: 'anywhere' }}>
              {/* One file named as its upload: the row's name already says it; the cell gives its size and state. */}
              {upload.upload.list.length === 1 && item.name === upload.name
                ? `${formatSize(item.file.size)}: ${item.state}`
                : `${item.name} (${formatSize(item.file.size)}): ${item.state}`}
            </Typography>
            {item.state === 'Finished' && (
              <Link
                component="button"
                type="button"
                variant="body2"
                // The soft accent: 4.5:1 on the paper and on a hovered row alike (the accent itself is 4.2:1 there).
                color="secondary"
                sx={{ ml: 1, verticalAlign: 'baseline' }}
                onClick={() => setShown({ stamp: item.stamp, name: item.name })}
                aria-label={`Preview ${item.name}`}
              >
                Preview
              </Link>
            )}
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
