// A generate request's embedding map on the request screen: braille dots coloured by target or cluster, a legend whose
// labels (a target's values, from the data) are escaped by core's printable.
import { Box, Text } from 'ink';
import { brailleMap, mapLegend, printable, varianceText } from '@portal/core';
import { useRunProjection } from '@portal/core/react';

/** Ink's names for the map's colours, in core's legend order. */
const INK_COLOURS = ['cyan', 'yellow', 'magenta', 'blue', 'red', 'green', 'magentaBright', 'yellowBright'] as const;
const WIDTH = 38;
const HEIGHT = 6;

export function RunMap({ runId }: { runId: string }) {
  const map = useRunProjection(runId);
  const p = map.data?.projection;
  if (!p) return map.data?.note ? <Text dimColor>{printable(map.data.note)}</Text> : null;
  const legend = mapLegend(p);
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
        {p.keyKind === 'target' ? 'Colour: target ' : 'Colour: cluster '}
        {legend.labels.map((l, i) => (
          <Text key={l} color={INK_COLOURS[i % INK_COLOURS.length]}>
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
