// An upload file's preview: the first rows with each column's type, statistics and histogram; a text upload's texts
// with their lengths; a model's layers. Numbers are formatted, long texts cut with the whole value on hover.
import { Alert, Box, Button, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { columnSummary, cutText, formatCell, loadFailure, previewSummary, type PreviewColumn, type UploadPreview } from '@portal/core';
import { PREVIEW_FAILURE, useUploadPreview } from '@portal/core/react';
import { HeadRow } from './Cells';
import { DialogFrame } from './Dialogs';
import { Loading } from './Loading';

/** Characters of a text shown in a cell; the whole text is the cell's hover title. */
const TEXT_CELL_CHARS = 120;

function Histogram({ counts }: { counts: readonly number[] }) {
  const top = Math.max(1, ...counts);
  return (
    <Box component="svg" viewBox={`0 0 ${counts.length * 4} 20`} sx={{ width: 80, height: 20, display: 'block' }} aria-label="histogram">
      {counts.map((n, i) => (
        <rect key={i} x={i * 4} y={20 - (n / top) * 20} width={3} height={(n / top) * 20} fill="currentColor" />
      ))}
    </Box>
  );
}

function ColumnHead({ column }: { column: PreviewColumn }) {
  const stats = columnSummary(column);
  return (
    <TableCell align="right" sx={{ verticalAlign: 'top' }} title={stats.map(([k, v]) => `${k}: ${v}`).join('\n')}>
      <Typography variant="subtitle2">{column.name}</Typography>
      <Box sx={{ color: 'primary.main', my: 0.5, display: 'flex', justifyContent: 'flex-end' }}>
        <Histogram counts={column.histogram} />
      </Box>
      {stats.map(([k, v]) => (
        <Typography key={k} variant="caption" component="div" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
          {k} {v}
        </Typography>
      ))}
    </TableCell>
  );
}

function PreviewBody({ preview }: { preview: UploadPreview }) {
  if (preview.kind === 'table') {
    return (
      <TableContainer sx={{ maxHeight: '60vh' }}>
        <Table size="small" stickyHeader aria-label="Preview rows">
          <TableHead>
            <TableRow>
              <TableCell>#</TableCell>
              {preview.columns.map((c, i) => (
                <ColumnHead key={i} column={c} />
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {preview.rows.map((row, r) => (
              <TableRow key={r}>
                <TableCell>{r + 1}</TableCell>
                {row.map((v, i) => (
                  <TableCell key={i} align="right" sx={{ fontVariantNumeric: 'tabular-nums' }} title={v === null ? 'missing' : String(v)}>
                    {formatCell(v)}
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    );
  }
  if (preview.kind === 'texts') {
    return (
      <TableContainer sx={{ maxHeight: '60vh' }}>
        <Table size="small" stickyHeader aria-label="Preview texts">
          <HeadRow cells={['#', 'Length', 'Text']} right={['Length']} />
          <TableBody>
            {preview.texts.map((t, i) => (
              <TableRow key={i}>
                <TableCell>{i + 1}</TableCell>
                <TableCell align="right">{formatCell(t.length)}</TableCell>
                <TableCell title={t.text}>{cutText(t.text, TEXT_CELL_CHARS)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    );
  }
  if (preview.kind === 'model' && preview.model) {
    return (
      <Table size="small" aria-label="Model layers">
        <HeadRow cells={['Layer', 'Type', 'Parameters', 'Count']} right={['Parameters', 'Count']} />
        <TableBody>
          {preview.model.layers.map((l, i) => (
            <TableRow key={i}>
              <TableCell title={l.name}>{cutText(l.name, 60)}</TableCell>
              <TableCell>{l.type}</TableCell>
              <TableCell align="right">{formatCell(l.parameters)}</TableCell>
              <TableCell align="right">{formatCell(l.count)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    );
  }
  return null;
}

export function UploadPreviewDialog({ upload, name, onClose }: { upload: string | null; name: string; onClose: () => void }) {
  const preview = useUploadPreview(upload);
  const p = preview.data;
  return (
    <DialogFrame
      open={upload !== null}
      onClose={onClose}
      titleId="upload-preview-title"
      title={`Preview of ${name}`}
      maxWidth="lg"
      actions={<Button onClick={onClose}>Close</Button>}
    >
      {preview.error ? (
        <Alert severity="error">{loadFailure(preview.error, PREVIEW_FAILURE)}</Alert>
      ) : !p ? (
        <Loading />
      ) : (
        <>
          {previewSummary(p) && <Typography sx={{ mb: 1 }}>{previewSummary(p)}</Typography>}
          {p.note && (
            <Alert severity="info" sx={{ mb: 1 }}>
              {p.note}
            </Alert>
          )}
          <PreviewBody preview={p} />
        </>
      )}
    </DialogFrame>
  );
}
