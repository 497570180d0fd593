// A QR code drawn with half blocks (two modules a character), dark on light so phone cameras read it on any theme.
import { Box, Text } from 'ink';
// qrcode's encoder alone: its package entry also loads the PNG and SVG renderers, which the terminal never uses.
import QR from 'qrcode/lib/core/qrcode.js';

/** The quiet zone around the code, in modules. */
const MARGIN = 1;

/** The code's lines: each character is two modules (top and bottom), '█' both dark, '▀' / '▄' one, ' ' neither. */
export function qrLines(text: string): string[] {
  const { modules } = QR.create(text, { errorCorrectionLevel: 'L' });
  const n = modules.size;
  const dark = (r: number, c: number) => r >= 0 && c >= 0 && r < n && c < n && !!modules.get(r, c);
  const lines: string[] = [];
  for (let r = -MARGIN; r < n + MARGIN; r += 2) {
    let line = '';
    for (let c = -MARGIN; c < n + MARGIN; c++) {
      const top = dark(r, c);
      const bottom = dark(r + 1, c);
      line += top && bottom ? '█' : top ? '▀' : bottom ? '▄' : ' ';
    }
    lines.push(line);
  }
  return lines;
}

export function QrCode({ lines }: { lines: string[] }) {
  return (
    <Box flexDirection="column" flexShrink={0}>
      {lines.map((l, i) => (
        <Text key={i} color="black" backgroundColor="white">
          {l}
        </Text>
      ))}
    </Box>
  );
}
