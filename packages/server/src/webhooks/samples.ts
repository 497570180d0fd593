// What a test event carries: the shape of the event's real data, with made-up values and `test: true`.
import { WEBHOOK_TEST_EVENT } from '@portal/core';

export function testData(type: string, client: string): Record<string, unknown> {
  const project = 'b_test';
  switch (type) {
    case 'run.finished':
    case 'run.failed':
      return {
        test: true,
        id: 'r_test',
        project,
        function: 'fit',
        name: 'Test request',
        state: type === 'run.finished' ? 'Finished' : 'Failed',
        message: type === 'run.finished' ? '' : 'A test failure.',
        upload: 'u_test',
      };
    case 'upload.ready':
    case 'upload.failed':
      return {
        test: true,
        id: 'u_test',
        project,
        name: 'Test upload',
        state: type === 'upload.ready' ? 'Ready' : 'Failed',
        message: type === 'upload.ready' ? '' : 'A test failure.',
      };
    case 'quote.created':
    case 'quote.paid':
      return {
        test: true,
        id: 'q_test',
        project,
        name: 'Test quote',
        function: 'shrink',
        state: type === 'quote.paid' ? 'Paid' : 'Pending',
        cent: 0,
        invoiceNum: '',
        run: null,
      };
    case 'member.joined':
      return { test: true, client, user: 'u_test', email: 'someone@example.com', role: 'member' };
    default:
      return { test: true, client, message: type === WEBHOOK_TEST_EVENT ? 'A test event from the portal.' : '' };
  }
}
