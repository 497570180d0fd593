import { describe, expect, it } from 'vitest';
import { installCommand, pythonExample } from '../index';

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
    // A new account has no project: the example finds or creates one instead of taking the first.
    expect(ex).toContain('project = client.project("My first project")');
    expect(ex).not.toContain('[0]');
  });
});
