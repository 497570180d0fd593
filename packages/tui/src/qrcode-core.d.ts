// qrcode's encoder module (its package's types describe only the entry, which also loads the file renderers).
declare module 'qrcode/lib/core/qrcode.js' {
  import type { QRCode, QRCodeCreateOptions } from 'qrcode';
  const QR: { create(text: string, options?: QRCodeCreateOptions): QRCode };
  export default QR;
}
