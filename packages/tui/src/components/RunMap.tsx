// A generate request's embedding map on the request screen: braille dots coloured by target, cluster or any column of
// the upload (c shows the next), a legend whose labels (values and class names, from the data) are escaped by core's
// printable.
import { useState } from 'react';
import { Box, Text, useInput } from 'ink';
import { brailleMap, mapColourings, mapLegend, printable, varianceText } from '@portal/core';
import { useRunProjection } from '@portal/core/react';

/** Ink's names for the map's colours, in core's legend order. */
const INK_COLOURS = ['cyan', 'yellow', 'magenta', 'blue', 'red', 'green', 'magentaBright', 'yellowBright'] as const;
const WIDTH = 38;
const HEIGHT = 6;

export function RunMap({ runId, active = true }: { runId: string; active?: boolean }) {
  const map = useRunProjection(runId);
  const [colouring, setColouring] = useState(0);
  const p = map.data?.projection;
  const colourings = p ? mapColourings(p) : [];
  useInput(
    (input) => {
      if (input === 'c') setColouring((i) => (i + 1) % colourings.length);
    },
    { isActive: active && colourings.length > 1 },
  );
  if (!p) return map.data?.note ? <Text dimColor>{printable(map.data.note)}</Text> : null;
  const legend = mapLegend(p, colourings[colouring % colourings.length]?.column ?? null);
  const cells = brailleMap(p, legend.colour, WIDTH, HEIGHT);
  return (
    <Box flexDirection="column">
      <Text bold>Embedding map</Text>
      {cells.map((row, r) => (
        <Text key={r}>
          {row.map((c, i) => (
            <Text key={i} color={c.colour < 0 ? undefined : INK_COLOURS[c.colour % INK_COLOURS.length]}>
              {c.ch}
            </Text>
          ))}
        </Text>
      ))}
      <Text wrap="truncate-end">
        {`Colour: ${printable(legend.title)}${colourings.length > 1 ? ' (c next)' : ''} `}
        {legend.labels.map((l, i) => (
          <Text key={i} color={INK_COLOURS[i % INK_COLOURS.length]}>
            {` ● ${printable(l)}`}
          </Text>
        ))}
      </Text>
      <Text dimColor wrap="truncate-end">
        {varianceText(p)}
      </Text>
    </Box>
  );
}
