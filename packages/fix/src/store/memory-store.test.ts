import { MemoryStoreFactory } from './memory-store';
import { runMessageStoreSuite } from './store-suite';

runMessageStoreSuite('memory', async () => ({ factory: new MemoryStoreFactory() }));
