// Prisma config for `npm run db:diff` only (bin/db-diff.ts passes it with
// --config). The diff's "from" side is a shadow database that Prisma's schema
// engine builds from prisma/migrations and then describes. Describing goes
// through the driver adapter, and @prisma/adapter-pg 6.19 cannot read two
// catalog types the describer selects: `name` (refused as unsupported) and
// `"char"` (the describer needs it as a character). This adapter reads them
// as text and as a character; everything else is the ordinary PrismaPg.
import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaPg } from "@prisma/adapter-pg";
import { ColumnTypeEnum, type SqlQuery, type SqlQueryable, type SqlResultSet } from "@prisma/driver-adapter-utils";

const CHAR_OID = 18;
const NAME_OID = 19;
const TEXT_OID = 25;

type PgField = { dataTypeID: number };
type PgQueryable = SqlQueryable & { performIO(query: SqlQuery): Promise<{ fields: PgField[] }> };

/** Makes a PrismaPg connection or transaction read `name` as text and `"char"` as a character. */
function readCatalogTypes<T extends SqlQueryable>(queryable: T): T {
  const pgQueryable = queryable as unknown as PgQueryable;
  const queryRaw = pgQueryable.queryRaw;
  const performIO = pgQueryable.performIO;
  pgQueryable.queryRaw = async function (query: SqlQuery): Promise<SqlResultSet> {
    const charColumns: number[] = [];
    // This call's own view of the connection, whose performIO retypes the columns.
    const call = Object.create(pgQueryable, {
      performIO: {
        value: async (q: SqlQuery) => {
          const result = await performIO.call(pgQueryable, q);
          result.fields.forEach((field, i) => {
            if (field.dataTypeID === NAME_OID) field.dataTypeID = TEXT_OID;
            if (field.dataTypeID === CHAR_OID) {
              field.dataTypeID = TEXT_OID;
              charColumns.push(i);
            }
          });
          return result;
        },
      },
    }) as PgQueryable;
    const result = await queryRaw.call(call, query);
    for (const i of charColumns) result.columnTypes[i] = ColumnTypeEnum.Character;
    return result;
  };
  const withTransactions = queryable as unknown as { startTransaction?: (...args: unknown[]) => Promise<SqlQueryable> };
  const startTransaction = withTransactions.startTransaction;
  if (startTransaction) {
    withTransactions.startTransaction = async (...args: unknown[]) =>
      readCatalogTypes(await startTransaction.apply(queryable, args));
  }
  return queryable;
}

class CatalogReadingPg extends PrismaPg {
  override async connect() {
    return readCatalogTypes(await super.connect());
  }
  override async connectToShadowDb() {
    return readCatalogTypes(await super.connectToShadowDb());
  }
}

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join(process.cwd(), "prisma", "schema.prisma"),
  async adapter() {
    return new CatalogReadingPg({ connectionString: process.env.DATABASE_URL });
  },
});
