DROP INDEX "channel_values_account_id_date_time_index";--> statement-breakpoint
CREATE INDEX "channel_values_account_id_index" ON "channel_values" USING btree ("account_id");