/** Opens (and so migrates) the PostgreSQL named by CHILD_DB, then exits: one of two racing processes. */
import { openDatabase } from '../../src/db/connect.ts';

process.stdout.write('started\n');
const database = await openDatabase({ url: process.env.CHILD_DB as string, dataDir: 'unused' });
await database.close();
process.stdout.write('migrated\n');
