ALTER TABLE "device_models" ADD COLUMN "rated_power" double precision;--> statement-breakpoint
ALTER TABLE "countries" ADD COLUMN "iso_code" text;--> statement-breakpoint
UPDATE "countries" SET "iso_code" = 'TR' WHERE "name" = 'Türkiye' AND "iso_code" IS NULL;
