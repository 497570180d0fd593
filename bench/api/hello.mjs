// The baseline: a bare Fastify hello-world, in its own process like the server under test.
import Fastify from 'fastify';

const app = Fastify();
app.get('/', async () => ({ hello: 'world' }));
const address = await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`listening ${address}`);
