// A generate request's embeddings as a map on a canvas (loaded only by pages that show one): points coloured by
// target, cluster or any column of the upload, wheel to zoom, drag to pan, hover for the row's inputs, a legend and each axis's variance.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Box, Button, LinearProgress, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { formatCell, loadFailure, MAP_COLOURS, mapColourings, mapLegend, sampleText, varianceText, type Projection } from '@portal/core';
import { useRunProjection } from '@portal/core/react';
import { CHART_PANEL } from '../../theme';

const HEIGHT = 420;
/** How near (in pixels) the pointer must be to a point for its hover. */
const HOVER_PX = 8;

interface View {
  scale: number;
  dx: number;
  dy: number;
}

function Canvas({ p }: { p: Projection }) {
  const ref = useRef<HTMLCanvasElement>(null);
  const [width, setWidth] = useState(800);
  const [view, setView] = useState<View>({ scale: 1, dx: 0, dy: 0 });
  const [hover, setHover] = useState<{ i: number; left: number; top: number } | null>(null);
  const drag = useRef<{ x: number; y: number } | null>(null);
  const [colouring, setColouring] = useState(0);
  const colourings = useMemo(() => mapColourings(p), [p]);
  const legend = useMemo(() => mapLegend(p, colourings[colouring]?.column ?? null), [p, colourings, colouring]);
  const bounds = useMemo(() => {
    let minX = Infinity,
      maxX = -Infinity,
      minY = Infinity,
      maxY = -Infinity;
    for (let i = 0; i < p.x.length; i++) {
      minX = Math.min(minX, p.x[i]);
      maxX = Math.max(maxX, p.x[i]);
      minY = Math.min(minY, p.y[i]);
      maxY = Math.max(maxY, p.y[i]);
    }
    return { minX, spanX: maxX - minX || 1, minY, spanY: maxY - minY || 1 };
  }, [p]);
  /** Screen position of point i in the current view (north up, 16 px margin). */
  const at = useCallback(
    (i: number): [number, number] => {
      const bx = 16 + ((p.x[i] - bounds.minX) / bounds.spanX) * (width - 32);
      const by = 16 + (1 - (p.y[i] - bounds.minY) / bounds.spanY) * (HEIGHT - 32);
      return [(bx - width / 2) * view.scale + width / 2 + view.dx, (by - HEIGHT / 2) * view.scale + HEIGHT / 2 + view.dy];
    },
    [p, bounds, width, view],
  );

  useEffect(() => {
    const el = ref.current?.parentElement;
    if (!el) return;
    const observer = new ResizeObserver(() => setWidth(Math.max(200, el.clientWidth)));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const canvas = ref.current;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) return;
    const ratio = window.devicePixelRatio || 1;
    canvas.width = width * ratio;
    canvas.height = HEIGHT * ratio;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, width, HEIGHT);
    const radius = p.x.length > 20_000 ? 1.2 : 2.5;
    for (let i = 0; i < p.x.length; i++) {
      const [x, y] = at(i);
      if (x < -4 || y < -4 || x > width + 4 || y > HEIGHT + 4) continue;
      ctx.fillStyle = MAP_COLOURS[legend.colour[i] % MAP_COLOURS.length];
      ctx.fillRect(x - radius, y - radius, radius * 2, radius * 2);
    }
  }, [p, width, legend, at]);

  const nearest = (mx: number, my: number) => {
    let best = -1,
      dist = HOVER_PX * HOVER_PX;
    for (let i = 0; i < p.x.length; i++) {
      const [x, y] = at(i);
      const d = (x - mx) ** 2 + (y - my) ** 2;
      if (d <= dist) [dist, best] = [d, i];
    }
    return best;
  };

  const point = hover ? hover.i : -1;
  return (
    <Box sx={{ position: 'relative' }}>
      <Box
        component="canvas"
        ref={ref}
        role="img"
        aria-label={`Embedding map of ${p.x.length.toLocaleString('en-US')} points`}
        sx={{
          width: '100%',
          height: HEIGHT,
          display: 'block',
          cursor: drag.current ? 'grabbing' : 'crosshair',
          bgcolor: CHART_PANEL,
        }}
        onWheel={(e) => {
          const r = e.currentTarget.getBoundingClientRect();
          const mx = e.clientX - r.left - width / 2,
            my = e.clientY - r.top - HEIGHT / 2;
          const k = e.deltaY < 0 ? 1.25 : 0.8;
          // Zoom about the pointer: the point under it stays under it.
          setView((v) => ({ scale: v.scale * k, dx: mx - (mx - v.dx) * k, dy: my - (my - v.dy) * k }));
        }}
        onPointerDown={(e) => {
          drag.current = { x: e.clientX, y: e.clientY };
        }}
        onPointerUp={() => {
          drag.current = null;
        }}
        onPointerLeave={() => {
          drag.current = null;
          setHover(null);
        }}
        onPointerMove={(e) => {
          const r = e.currentTarget.getBoundingClientRect();
          if (drag.current) {
            const d = { x: e.clientX - drag.current.x, y: e.clientY - drag.current.y };
            drag.current = { x: e.clientX, y: e.clientY };
            setView((v) => ({ ...v, dx: v.dx + d.x, dy: v.dy + d.y }));
            return;
          }
          const i = nearest(e.clientX - r.left, e.clientY - r.top);
          setHover(i < 0 ? null : { i, left: e.clientX - r.left, top: e.clientY - r.top });
        }}
      />
      {hover && point >= 0 && (
        <Box
          role="tooltip"
          sx={{
            position: 'absolute',
            left: Math.min(hover.left + 12, width - 220),
            top: hover.top + 12,
            bgcolor: 'background.paper',
            border: 1,
            borderColor: 'divider',
            borderRadius: 1,
            p: 1,
            pointerEvents: 'none',
            maxWidth: 220,
          }}
        >
          <Typography variant="subtitle2">Row {(p.row[point] + 1).toLocaleString('en-US')}</Typography>
          <Typography variant="body2">
            {legend.title}: {legend.labels[legend.colour[point]]}
          </Typography>
          <Typography variant="body2">Inputs {p.inputs[point].map((v) => formatCell(v)).join(', ')}</Typography>
        </Box>
      )}
      <Stack direction="row" spacing={2} sx={{ mt: 1, flexWrap: 'wrap', alignItems: 'center' }}>
        {colourings.length > 1 ? (
          <TextField
            select
            size="small"
            label="Colour by"
            value={String(colouring)}
            onChange={(e) => setColouring(Number(e.target.value))}
            sx={{ minWidth: 180, maxWidth: 280 }}
          >
            {colourings.map((c, i) => (
              <MenuItem key={i} value={String(i)}>
                {c.label}
              </MenuItem>
            ))}
          </TextField>
        ) : (
          <Typography variant="body2" color="text.secondary">
            Colour: {legend.title}
          </Typography>
        )}
        {/* The list holds only its items (axe: aria-required-children); the caption and the button sit beside it. */}
        <Stack direction="row" spacing={2} sx={{ flexWrap: 'wrap' }} aria-label="Legend" role="list">
          {legend.labels.map((label, i) => (
            <Stack key={i} direction="row" spacing={0.5} sx={{ alignItems: 'center' }} role="listitem">
              <Box sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: MAP_COLOURS[i % MAP_COLOURS.length] }} />
              <Typography variant="body2">{label}</Typography>
            </Stack>
          ))}
        </Stack>
        <Button size="small" onClick={() => setView({ scale: 1, dx: 0, dy: 0 })}>
          Reset view
        </Button>
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
        {varianceText(p)}. Scroll to zoom, drag to pan, hover a point for its row.
      </Typography>
      {sampleText(p) && (
        <Alert severity="info" sx={{ mt: 1 }}>
          {sampleText(p)}
        </Alert>
      )}
    </Box>
  );
}

export default function EmbeddingMap({ runId }: { runId: string }) {
  const map = useRunProjection(runId);
  if (!map.data)
    return map.error ? <Alert severity="error">{loadFailure(map.error)}</Alert> : <LinearProgress aria-label="Loading the map" />;
  if (!map.data.projection) return <Typography color="text.secondary">{map.data.note}</Typography>;
  return <Canvas p={map.data.projection} />;
}
