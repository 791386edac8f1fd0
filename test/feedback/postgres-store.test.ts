import { parseStateLocation } from "../../src/store/location.js";
import { openStores } from "../../src/store/stores.js";
import { describePostgres, freshDatabase } from "../helpers/postgres.js";
import { describeFeedbackStore } from "./store-contract.js";

describePostgres("PostgreSQL feedback store", () => {
  describeFeedbackStore("PostgreSQL", async () => {
    const db = await freshDatabase();
    const stores = openStores(parseStateLocation(db.url, "/"));
    return { store: await stores.feedback(), cleanup: async () => (await stores.close(), await db.drop()) };
  });
});
