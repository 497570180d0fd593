// The pip installer command and the Python example shown on a client API key's page.

/** `pip install <origin>/api/pack/<pack.linux64>` (DESIGN.md: the only installer is Linux 64-bit). */
export function installCommand(origin: string, packFile: string, prefix = '/api/pack/'): string {
  return `pip install ${origin}${prefix}${packFile}`;
}

export function pythonExample(origin: string, token: string): string {
  return [
    'import portal_client',
    '',
    `client = portal_client.Client(api="${origin}", token="${token}")`,
    'print(client.projects())',
    '',
  ].join('\n');
}
