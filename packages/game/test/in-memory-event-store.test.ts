import { createInMemoryEventStore, eventStoreContract } from '../src/testing/index.js';

eventStoreContract('in-memory', async () => ({ store: createInMemoryEventStore() }));
