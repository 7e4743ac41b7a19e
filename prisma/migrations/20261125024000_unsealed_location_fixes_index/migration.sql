-- The location checks whose coordinates are still in clear (stored before
-- they were sealed): the start-up backfill (lib/checks/location-fix.ts
-- sealStoredLocationFixes) reads them through this partial index, which is
-- empty once they are sealed, instead of scanning check_results at every start.
-- Its predicate must stay identical to the backfill query's.
CREATE INDEX "check_results_unsealed_location_fixes_idx" ON "check_results" ("id")
  WHERE "type" = 'location' AND ("data" ? 'lat' OR "data" ? 'lng' OR "data" ? 'accuracy_m');
