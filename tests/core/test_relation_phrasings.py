"""Everyday phrasings the pair decision must read, written from general knowledge of how people put things (not
from a labelled set): the same fact said two ways stays consistent, two answers to one question conflict, and
the same attribute of two subjects is no conflict.

Each pair exercises a reader in general (dates with the day first, fractions of an hour, a rate said with a
frequency word, a clock time with a dot, irregular participles, a change whose result is what the record says, a
setting written KEY=value, a file path, a port, a note of several claims, a value that says which subject); a pair
that fails here names a gap in a reader, never a word to add for it.
"""

from __future__ import annotations

import pytest

from memkeeper.core.relation import Statement, relate

CONTRADICTIONS = [
    ("The lease renewal is due on 14 March.", "The lease renewal is due on March 21."),
    ("The conference is in the second week of June.", "The conference is in late September."),
    ("Passport expires in 2027.", "Passport expires in 2029."),
    ("The audit is scheduled for next Tuesday.", "The audit is scheduled for Thursday."),
    ("The beta ends on 2026-03-01.", "The beta ends on 15 March 2026."),
    ("The monthly rent is €1,450.", "Rent is €1,900 per month."),
    ("The gym costs £35 a month.", "The gym membership is £600 a year."),
    ("The VM has 16 GB of RAM.", "The VM was given 64 GB of RAM."),
    ("The team is 12 people.", "The team has grown to 20 people."),
    ("The fridge is set to 4 °C.", "The fridge is set to 8 degrees."),
    ("Conversion rate is 3%.", "Conversion rate is 7%."),
    ("Tokens expire after 15 minutes.", "Tokens are valid for an hour."),
    ("The standup happens daily.", "Standup is twice a week."),
    ("Invoices are sent every month.", "Invoices go out quarterly."),
    ("Backups are kept for 90 days.", "Backups are retained for a year."),
    ("The pharmacy opens at 8:30.", "The pharmacy opens at 9."),
    ("The nightly build kicks off at 11 pm.", "The nightly build starts at 1 am."),
    ("Quiet hours start at ten in the evening.", "Quiet hours begin at 9 pm."),
    ("Priya is the release manager for Q3.", "The Q3 release manager is Tom."),
    ("The spare keys are in the kitchen drawer.", "The spare keys hang in the hallway."),
    ("The offsite is in Porto.", "The offsite will be held in Lisbon."),
    ("The printer is on the second floor.", "The printer is on floor 4."),
    ("We deploy with Argo CD.", "Deployments go through Spinnaker."),
    ("The frontend is written in TypeScript.", "The frontend is plain JavaScript."),
    ("Two-factor auth is mandatory for admins.", "Two-factor auth is optional for admins."),
    ("Pets are allowed in the flat.", "No pets are allowed in the flat."),
    ("The feature flag is on in production.", "The feature flag is disabled in production."),
    ("The repository is public.", "The repository is private."),
    ("The team uses Jira.", "The team moved from Jira to Linear last month."),
    ("Our office is in Berlin.", "We relocated the office to Munich in May."),
    ("Ana leads the design team.", "Ana stepped down as design lead."),
    ("Deploys freeze on Fridays.", "We dropped the Friday deploy freeze."),
    ("The API supports pagination.", "The API doesn't paginate results."),
    ("Ravi is on the hiring panel.", "Ravi was taken off the hiring panel."),
    ("The shared drive is backed up nightly.", "Nobody backs up the shared drive."),
    ("The boiler was serviced in March.", "The boiler hasn't been serviced this year."),
    ("Kai can drive.", "Kai doesn't have a driving licence."),
    ("The store is open on Sundays.", "The store is closed on Sundays."),
    ("The library is open until 20:00 on weekdays.", "On weekdays the library closes at 6 pm."),
    ("The standup is at 9:30.", "Standup moved to 11:00."),
    ("Payments are handled by Stripe.", "We replaced Stripe with Adyen."),
    ("The lease ends in June 2027.", "The lease was extended to December 2027."),
    ("The cat is fed twice a day.", "The cat is fed once a day."),
    ("The warehouse has 40 staff.", "The warehouse employs about 120 people."),
    ("The support inbox is support@acme.test.", "Support mail goes to help@acme.test."),
    ("Priya's flight lands at 14:20.", "Priya's flight gets in at 18:05."),
    ("The next board meeting is on 12 February.", "The board meets next on 3 March."),
    ("The guest Wi-Fi is open.", "The guest Wi-Fi needs a password."),
    ("The API listens on port 8080.", "The API's port is 9090."),
    ("The config file lives at /etc/acme/config.yaml.", "The config is read from /opt/acme/settings.yaml."),
    ("Set LOG_LEVEL=debug in staging.", "Staging runs with LOG_LEVEL=info."),
    ("Max upload size is 10 MB.", "Uploads are capped at 25 MB."),
    ("The cache TTL is 5 minutes.", "Cache entries expire after an hour."),
    ("Node 18 is the runtime for the web app.", "The web app runs on Node 20."),
    ("Questions about payroll go to Imani.", "Payroll questions should go to Oskar."),
    ("The point of contact at the bank is Mr. Hale.", "Our contact at the bank is Ms. Varga."),
    ("Jun is the tech lead on Search.", "Search's tech lead is Bea."),
    ("The migration to the new CRM is complete.", "The CRM migration is still in progress."),
    ("The bug in checkout is fixed.", "The checkout bug is still open."),
    ("The kitchen renovation is on hold.", "The kitchen renovation is going ahead as planned."),
    ("The visa application was approved.", "The visa application was rejected."),
    ("Mia prefers morning meetings.", "Mia likes her meetings after lunch."),
    ("Dev prefers email over Slack.", "Dev wants everything on Slack, not email."),
    ("The client wants reports as PDFs.", "The client asked for reports in Excel."),
    ("Ola likes the window seat.", "Ola always picks the aisle."),
    ("Expenses over $500 need director approval.", "Expenses over $1,000 need director approval."),
    ("Visitors must sign in at reception.", "Visitors can walk straight in without signing in."),
    ("Code freeze starts two days before release.", "The code freeze begins a week before each release."),
    (
        "Notes on the Ivy project:\n- Launch is on 9 June.\n- The PM is Sara.\n- Budget is $40k.",
        "Ivy's launch date is 16 June.",
    ),
    ("Notes on the Ivy project:\n- Launch is on 9 June.\n- The PM is Sara.\n- Budget is $40k.", "Ivy's PM is Tomasz."),
    (
        "Household: bins go out Tuesday night. Recycling is every other Friday. The plumber is Gary. The boiler service is in October.",
        "Recycling is collected weekly on Fridays.",
    ),
    (
        "Household: bins go out Tuesday night. Recycling is every other Friday. The plumber is Gary. The boiler service is in October.",
        "Our plumber is Dev Patel.",
    ),
    (
        "Session summary, Larch mobile app. The iOS build runs on Bitrise. Android releases go out every second Tuesday. Crash reports are in Sentry. The app supports iOS 16 and later. Push notifications use Firebase.",
        "Larch uses Crashlytics for crash reports.",
    ),
    (
        "Session summary, Larch mobile app. The iOS build runs on Bitrise. Android releases go out every second Tuesday. Crash reports are in Sentry. The app supports iOS 16 and later. Push notifications use Firebase.",
        "The Larch iOS build moved to GitHub Actions.",
    ),
    (
        "Session summary, Larch mobile app. The iOS build runs on Bitrise. Android releases go out every second Tuesday. Crash reports are in Sentry. The app supports iOS 16 and later. Push notifications use Firebase.",
        "Android releases for Larch go out every Thursday.",
    ),
    (
        "Session summary, Larch mobile app. The iOS build runs on Bitrise. Android releases go out every second Tuesday. Crash reports are in Sentry. The app supports iOS 16 and later. Push notifications use Firebase.",
        "Larch supports iOS 15 and up.",
    ),
    (
        "Family logistics:\n- Swimming is Wednesdays 17:00 at the leisure centre.\n- Piano lesson Saturday 10:00 with Mrs. Abara.\n- School pickup by Grandpa on Fridays.\n- Dentist check-ups every six months.",
        "Swimming moved to Thursdays.",
    ),
    (
        "Family logistics:\n- Swimming is Wednesdays 17:00 at the leisure centre.\n- Piano lesson Saturday 10:00 with Mrs. Abara.\n- School pickup by Grandpa on Fridays.\n- Dentist check-ups every six months.",
        "Dentist check-ups are once a year.",
    ),
    (
        "Notes from the landlord call. Rent is £1,250 a month, due on the 1st. The boiler was replaced in 2023. Bins are collected on Thursdays. The landlord's agent is Foxtons.",
        "Bins are collected on Mondays.",
    ),
    (
        "Notes from the landlord call. Rent is £1,250 a month, due on the 1st. The boiler was replaced in 2023. Bins are collected on Thursdays. The landlord's agent is Foxtons.",
        "The landlord's agent is Savills.",
    ),
    (
        "Quarry data platform, state of play: the warehouse is Snowflake; dbt runs hourly; the BI tool is Looker; Airflow schedules the ingestion jobs; data retention is 400 days.",
        "The Quarry warehouse is BigQuery.",
    ),
    (
        "Quarry data platform, state of play: the warehouse is Snowflake; dbt runs hourly; the BI tool is Looker; Airflow schedules the ingestion jobs; data retention is 400 days.",
        "Quarry's BI tool is Tableau.",
    ),
    (
        "Quarry data platform, state of play: the warehouse is Snowflake; dbt runs hourly; the BI tool is Looker; Airflow schedules the ingestion jobs; data retention is 400 days.",
        "dbt runs once a day for Quarry.",
    ),
]

CONSISTENT = [
    ("The lease renewal is due on 14 March.", "The lease renewal is due on the 14th of March."),
    ("The beta ends on 2026-03-01.", "The beta ends on 1 March 2026."),
    ("The monthly rent is €1,450.", "Rent is 1450 euros a month."),
    ("The gym costs £35 a month.", "The gym membership is £420 a year."),
    ("The VM has 16 GB of RAM.", "The VM has 16GB memory."),
    ("The disk quota is 500 MB per user.", "Each user gets half a gigabyte of disk."),
    ("Ada is 1.62 m tall.", "Ada is 162 cm tall."),
    ("The fridge is set to 4 °C.", "The fridge is set to 39 °F."),
    ("Conversion rate is 3%.", "Conversion rate is about three percent."),
    ("The dog weighs 30 kg.", "The dog weighs about 66 lbs."),
    ("Tokens expire after 15 minutes.", "Tokens expire after a quarter of an hour."),
    ("The standup happens daily.", "The standup happens every day."),
    ("Backups are kept for 90 days.", "Backups are kept for three months."),
    ("The pharmacy opens at 8:30.", "The pharmacy opens at half eight."),
    ("Quiet hours start at ten in the evening.", "Quiet hours start at 22:00."),
    ("Priya is the release manager for Q3.", "Priya manages the Q3 release."),
    ("The budget owner is Marco.", "Marco owns the budget."),
    ("The offsite is in Porto.", "The offsite is in Porto, at a hotel by the river."),
    ("The team standup is at 9:30.", "Standup starts at half past nine, in the small meeting room."),
    ("Marta owns the payments service.", "Marta is the owner of payments and reviews its on-call rota."),
    ("The office wifi password is rotated monthly.", "Every month the office wifi password gets changed."),
    ("We use Postgres 15 for the orders database.", "The orders DB is PostgreSQL 15.4."),
    ("Dinner with the Okafors is on Saturday at 7 pm.", "Saturday 19:00: dinner at the Okafors'."),
    ("The kids' swimming lesson is on Wednesdays.", "Swimming for the kids is every Wednesday after school."),
    ("The car is due for its MOT in October.", "Book the car's MOT for October."),
    ("Invoices must be paid within 30 days.", "Our payment terms are net 30."),
    ("Lena is allergic to peanuts.", "Lena has a peanut allergy, so no satay."),
    ("The server has 64 GB of RAM.", "The server was upgraded to 64 GB RAM last spring."),
    ("The design review is every other Thursday.", "Design reviews happen fortnightly on Thursdays."),
    ("The on-call rotation changes every Monday.", "On-call hands over weekly, on Monday mornings."),
    ("Our accountant is Ruth Adeyemi.", "Ruth Adeyemi does our books and files the VAT returns."),
    ("The API rate limit is 100 requests per minute.", "Clients may make up to 100 calls a minute to the API."),
    ("The library closes at 8 pm on weekdays.", "On weekdays the library is open until 20:00."),
    ("We keep logs for 30 days.", "Logs older than a month are deleted."),
    ("The house alarm code is set by Priya.", "Priya changed the house alarm code last week."),
    ("Tom prefers tea to coffee.", "Tom drinks tea, rarely coffee."),
    ("The garden is watered every evening in summer.", "In summer we water the garden each evening."),
    ("The release branch is cut on Mondays.", "Release branches are created every Monday morning."),
    ("Our cat Miso is twelve.", "Miso, our cat, turned 12 in April."),
    ("The bins go out on Tuesday night.", "Put the bins out Tuesday evening for Wednesday collection."),
    ("We moved the standup to 10:00.", "Standup is at 10 now."),
    ("The team switched to Linear.", "Issues are tracked in Linear."),
    ("The API listens on port 8080.", "The API serves on :8080 inside the container."),
    ("The cache TTL is 5 minutes.", "Cache entries live for 300 seconds."),
    ("The feature is behind the flag new_checkout.", "The flag new_checkout gates the feature."),
    ("The cron job runs at 02:30 UTC.", "The cron schedule is 30 2 * * *."),
    ("Questions about payroll go to Imani.", "Imani handles payroll questions."),
    ("The babysitter on Fridays is Chloe.", "Chloe babysits on Fridays."),
    ("Grandpa's GP is Dr. Singh.", "Grandpa sees Dr. Singh at the village practice."),
    ("The visa application was approved.", "We got the visa approval letter on Monday."),
    ("Dev prefers email over Slack.", "Dev would rather get an email than a Slack ping."),
    ("Ola likes the window seat.", "Ola prefers sitting by the window on trains."),
    ("Expenses over $500 need director approval.", "Anything above $500 must be signed off by a director."),
    (
        "Notes on the Ivy project:\n- Launch is on 9 June.\n- The PM is Sara.\n- Budget is $40k.",
        "The Ivy budget is $40,000.",
    ),
    (
        "Notes on the Ivy project:\n- Launch is on 9 June.\n- The PM is Sara.\n- Budget is $40k.",
        "Ivy launches in June with Sara as PM.",
    ),
    (
        "Household: bins go out Tuesday night. Recycling is every other Friday. The plumber is Gary. The boiler service is in October.",
        "The boiler is serviced each October.",
    ),
    (
        "Session summary, Larch mobile app. The iOS build runs on Bitrise. Android releases go out every second Tuesday. Crash reports are in Sentry. The app supports iOS 16 and later. Push notifications use Firebase.",
        "Larch's iOS builds happen on Bitrise, triggered by every merge to main.",
    ),
    (
        "Session summary, Larch mobile app. The iOS build runs on Bitrise. Android releases go out every second Tuesday. Crash reports are in Sentry. The app supports iOS 16 and later. Push notifications use Firebase.",
        "Larch Android releases ship fortnightly on Tuesdays.",
    ),
    (
        "Session summary, Larch mobile app. The iOS build runs on Bitrise. Android releases go out every second Tuesday. Crash reports are in Sentry. The app supports iOS 16 and later. Push notifications use Firebase.",
        "Larch crashes are tracked in Sentry, with alerts to #larch-mobile.",
    ),
    (
        "Session summary, Larch mobile app. The iOS build runs on Bitrise. Android releases go out every second Tuesday. Crash reports are in Sentry. The app supports iOS 16 and later. Push notifications use Firebase.",
        "The Larch app's minimum iOS version is 16.",
    ),
    (
        "Session summary, Larch mobile app. The iOS build runs on Bitrise. Android releases go out every second Tuesday. Crash reports are in Sentry. The app supports iOS 16 and later. Push notifications use Firebase.",
        "Larch's push notifications are sent through Firebase Cloud Messaging.",
    ),
    (
        "Session summary, Larch mobile app. The iOS build runs on Bitrise. Android releases go out every second Tuesday. Crash reports are in Sentry. The app supports iOS 16 and later. Push notifications use Firebase.",
        "Larch's Android build also runs on Bitrise.",
    ),
    (
        "Family logistics:\n- Swimming is Wednesdays 17:00 at the leisure centre.\n- Piano lesson Saturday 10:00 with Mrs. Abara.\n- School pickup by Grandpa on Fridays.\n- Dentist check-ups every six months.",
        "Swimming is on Wednesday at five in the afternoon.",
    ),
    (
        "Family logistics:\n- Swimming is Wednesdays 17:00 at the leisure centre.\n- Piano lesson Saturday 10:00 with Mrs. Abara.\n- School pickup by Grandpa on Fridays.\n- Dentist check-ups every six months.",
        "Mrs. Abara teaches piano on Saturday mornings.",
    ),
    (
        "Family logistics:\n- Swimming is Wednesdays 17:00 at the leisure centre.\n- Piano lesson Saturday 10:00 with Mrs. Abara.\n- School pickup by Grandpa on Fridays.\n- Dentist check-ups every six months.",
        "Grandpa collects the kids from school on Fridays.",
    ),
    (
        "Family logistics:\n- Swimming is Wednesdays 17:00 at the leisure centre.\n- Piano lesson Saturday 10:00 with Mrs. Abara.\n- School pickup by Grandpa on Fridays.\n- Dentist check-ups every six months.",
        "The kids see the dentist twice a year.",
    ),
    (
        "Family logistics:\n- Swimming is Wednesdays 17:00 at the leisure centre.\n- Piano lesson Saturday 10:00 with Mrs. Abara.\n- School pickup by Grandpa on Fridays.\n- Dentist check-ups every six months.",
        "The swimming lesson is at the leisure centre pool.",
    ),
    (
        "Notes from the landlord call. Rent is £1,250 a month, due on the 1st. The boiler was replaced in 2023. Bins are collected on Thursdays. The landlord's agent is Foxtons.",
        "The rent of £1,250 is paid on the first of each month.",
    ),
    (
        "Notes from the landlord call. Rent is £1,250 a month, due on the 1st. The boiler was replaced in 2023. Bins are collected on Thursdays. The landlord's agent is Foxtons.",
        "The boiler is new; it was put in in 2023.",
    ),
    (
        "Notes from the landlord call. Rent is £1,250 a month, due on the 1st. The boiler was replaced in 2023. Bins are collected on Thursdays. The landlord's agent is Foxtons.",
        "Bin collection day is Thursday.",
    ),
    (
        "Notes from the landlord call. Rent is £1,250 a month, due on the 1st. The boiler was replaced in 2023. Bins are collected on Thursdays. The landlord's agent is Foxtons.",
        "Foxtons manages the flat for the landlord.",
    ),
    (
        "Quarry data platform, state of play: the warehouse is Snowflake; dbt runs hourly; the BI tool is Looker; Airflow schedules the ingestion jobs; data retention is 400 days.",
        "Quarry's warehouse runs on Snowflake.",
    ),
    (
        "Quarry data platform, state of play: the warehouse is Snowflake; dbt runs hourly; the BI tool is Looker; Airflow schedules the ingestion jobs; data retention is 400 days.",
        "Quarry dbt models are rebuilt every hour.",
    ),
    (
        "Quarry data platform, state of play: the warehouse is Snowflake; dbt runs hourly; the BI tool is Looker; Airflow schedules the ingestion jobs; data retention is 400 days.",
        "Quarry dashboards are built in Looker.",
    ),
    (
        "Quarry data platform, state of play: the warehouse is Snowflake; dbt runs hourly; the BI tool is Looker; Airflow schedules the ingestion jobs; data retention is 400 days.",
        "Quarry keeps data for 400 days before deletion.",
    ),
    (
        "Quarry data platform, state of play: the warehouse is Snowflake; dbt runs hourly; the BI tool is Looker; Airflow schedules the ingestion jobs; data retention is 400 days.",
        "Quarry's ingestion is orchestrated by Airflow DAGs.",
    ),
    ("Alice's standup is at 9:00.", "Bob's standup is at 10:00."),
    ("The Berlin office opens at 8 am.", "The Paris office opens at 9 am."),
    ("The staging database is Postgres 15.", "The analytics database is ClickHouse."),
    ("Maya's dentist is Dr. Hart.", "Leo's dentist is Dr. Osei."),
    ("The kitchen tap drips when it's cold.", "The bathroom tap was replaced in May."),
    ("The iOS app is written in Swift.", "The Android app is written in Kotlin."),
    ("Our EU customers are billed in euros.", "Our US customers are billed in dollars."),
    ("The front door key is on the blue hook.", "The garage key is in the kitchen drawer."),
    ("The newsletter goes out monthly.", "The changelog goes out weekly."),
    ("Ines is allergic to penicillin.", "Tomas is allergic to latex."),
    ("The public API allows 1,000 requests per minute.", "The internal API allows 50 requests per minute."),
    ("Grandma's flight lands at 14:20 on Friday.", "Uncle Ray's train arrives at 18:05 on Friday."),
    ("The team offsite is in Lisbon in April.", "The sales kickoff is in Madrid in January."),
    ("Project Falcon is on hold.", "Project Heron is on track."),
    ("The cat's vet is in Hove.", "The dog's groomer is in Brighton."),
    ("Kofi leads the mobile team.", "Ama leads the web team."),
    ("The mortgage rate is fixed until 2027.", "The car loan ends in 2026."),
    ("The printer on floor 2 is out of toner.", "The printer on floor 3 works fine."),
    ("Zoe's school starts at 8:40.", "Sam's nursery opens at 7:30."),
    ("The production log level is WARN.", "The staging log level is DEBUG."),
    ("The Kestrel repo uses pnpm.", "The Orbit repo uses yarn."),
    ("Deploys to the EU region happen on Tuesdays.", "Deploys to the US region happen on Thursdays."),
    ("Marketing's budget is $45k this quarter.", "Engineering's budget is $120k this quarter."),
]


@pytest.mark.parametrize("old, new", CONTRADICTIONS)
def test_two_answers_to_one_question_conflict(old, new):
    r = relate(Statement(old), Statement(new))
    assert r.is_conflict, r


@pytest.mark.parametrize("old, new", CONSISTENT)
def test_the_same_fact_said_two_ways_is_no_conflict(old, new):
    r = relate(Statement(old), Statement(new))
    assert not r.is_conflict, r
