CREATE TABLE "energy_rollup_marks" (
	"account_id" bigint PRIMARY KEY NOT NULL,
	"rolled_until" timestamp with time zone NOT NULL,
	"repaired_through" date
);
--> statement-breakpoint
ALTER TABLE "energy_daily" ADD COLUMN "power_kwh" double precision;--> statement-breakpoint
ALTER TABLE "energy_daily" ADD COLUMN "metered_kwh" double precision;--> statement-breakpoint
ALTER TABLE "energy_rollup_marks" ADD CONSTRAINT "energy_rollup_marks_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Days rolled up before this migration: their energy came from the one source the flag names.
UPDATE "energy_daily" SET "metered_kwh" = CASE WHEN "metered" THEN "energy_kwh" END,
  "power_kwh" = CASE WHEN NOT "metered" THEN "energy_kwh" END;
