// The key info page's installer command and Python example, built from the API base the portal talks to.
import { PACK_PATH_PREFIX } from '../contract/calls';

const trimBase = (apiBase: string) => apiBase.replace(/\/+$/, '');

/** `pip install "<base>/api/pack/<file>"`, quoted because the package path may carry a query string. */
export function installCommand(apiBase: string, packFile: string): string {
  return `pip install "${trimBase(apiBase)}${PACK_PATH_PREFIX}${packFile}"`;
}

/**
 * A complete script that runs as shown on a new account: find or create a project, upload a file, train and generate
 * (waiting for the result), download it. With `client` (the account id the key belongs to, known to the key info
 * page) the script names its account explicitly. The tests run this exact text.
 */
export function pythonExample(apiBase: string, token: string, client?: string): string {
  const account = client ? `, client=${JSON.stringify(client)}` : '';
  return `from portal_client import Client

client = Client(token=${JSON.stringify(token)}, base_url=${JSON.stringify(trimBase(apiBase))}${account})

project = client.project("My first project")  # found by name, or created
upload = client.upload(project, "data.json")  # rows of 3 inputs followed by 1 target
run = client.fit(project, upload, inputs=3, outputs=5, target=1, task="regression", wait=True)
client.download(run, "embeddings.json")
`;
}
