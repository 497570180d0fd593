import { describe, expect, it } from 'vitest';
import { PYTHON_EXAMPLE_PROJECT, installCommand, pythonExample } from '../index';

describe('Python installer and example', () => {
  it('builds the pip command from the API base and the key pack file', () => {
    expect(installCommand('http://localhost:8080/', 'k_abc/s3cret/portal_client-0.1.0-py3-none-any.whl')).toBe(
      'pip install "http://localhost:8080/api/pack/k_abc/s3cret/portal_client-0.1.0-py3-none-any.whl"',
    );
  });

  it('names the account when the page knows it', () => {
    expect(pythonExample('http://h', 't', 'c_1')).toContain('client = Client(token="t", base_url="http://h", client="c_1")');
  });

  it('puts the token and base in a runnable example', () => {
    const ex = pythonExample('https://api.example.com', 'tok"en');
    expect(ex).toContain('client = Client(token="tok\\"en", base_url="https://api.example.com")');
    expect(ex).toContain('client.download(run, "embeddings.json")');
    // A new account has no project: the example finds or creates one by name instead of taking the first, and
    // makes no new one when run again.
    expect(ex).toContain(`project = client.project("${PYTHON_EXAMPLE_PROJECT}")`);
    expect(ex).not.toContain('[0]');
    // It carries its own sample instead of reading a file the folder lacks, and fits by column names.
    expect(ex).toContain('with open("flowers.csv", "w", newline="") as f:');
    expect(ex).toContain('client.upload(project, "flowers.csv")');
    expect(ex).toContain('target="species", inputs=inputs');
  });
});
