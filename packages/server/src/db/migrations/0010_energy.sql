CREATE TABLE "energy_daily" (
	"account_id" bigint NOT NULL,
	"device_id" bigint NOT NULL,
	"day" date NOT NULL,
	"energy_kwh" double precision NOT NULL,
	"metered" boolean NOT NULL,
	"burn_hours" double precision NOT NULL,
	"baseline_kwh" double precision,
	"night_hours" double precision,
	"computed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "energy_daily_device_id_day_pk" PRIMARY KEY("device_id","day")
);
--> statement-breakpoint
CREATE TABLE "energy_monthly" (
	"account_id" bigint NOT NULL,
	"device_id" bigint NOT NULL,
	"month" date NOT NULL,
	"energy_kwh" double precision NOT NULL,
	"baseline_kwh" double precision,
	"energy_with_baseline_kwh" double precision,
	"burn_hours" double precision NOT NULL,
	"days" integer NOT NULL,
	"metered_days" integer NOT NULL,
	CONSTRAINT "energy_monthly_device_id_month_pk" PRIMARY KEY("device_id","month")
);
--> statement-breakpoint
ALTER TABLE "device_models" ADD COLUMN "rated_power" double precision;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "rated_power" double precision;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "tariff_per_kwh" double precision;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "currency" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "emission_factor" double precision;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "time_zone" text;--> statement-breakpoint
ALTER TABLE "energy_daily" ADD CONSTRAINT "energy_daily_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "energy_daily" ADD CONSTRAINT "energy_daily_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "energy_monthly" ADD CONSTRAINT "energy_monthly_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "energy_monthly" ADD CONSTRAINT "energy_monthly_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "energy_daily_account_id_day_index" ON "energy_daily" USING btree ("account_id","day");--> statement-breakpoint
CREATE INDEX "energy_monthly_account_id_month_index" ON "energy_monthly" USING btree ("account_id","month");