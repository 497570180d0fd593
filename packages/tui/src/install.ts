// What the API key details show: the Linux 64-bit pip installer command and a Python example.
import { PACK_PATH_PREFIX } from '@portal/core';

export function installerCommand(baseUrl: string, linux64: string): string {
  return `pip install ${baseUrl.replace(/\/+$/, '')}${PACK_PATH_PREFIX}${linux64}`;
}

export function pythonExample(baseUrl: string, token: string): string {
  return [
    'import portal_client',
    '',
    `client = portal_client.Client(api="${baseUrl.replace(/\/+$/, '')}", token="${token}")`,
    'print(client.projects())',
  ].join('\n');
}
