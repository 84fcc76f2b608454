"""Everyday phrasings the pair decision must read, written from general knowledge of how people put things (not
from a labelled set): the same fact said two ways stays consistent, two answers to one question conflict.

Each pair exercises a reader in general (dates with the day first, fractions of an hour, a rate said with a
frequency word, a clock time with a dot, irregular participles, a change whose result is what the record says);
a pair that fails here names a gap in a reader, never a word to add for it.
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
]


@pytest.mark.parametrize("old, new", CONTRADICTIONS)
def test_two_answers_to_one_question_conflict(old, new):
    r = relate(Statement(old), Statement(new))
    assert r.is_conflict, r


@pytest.mark.parametrize("old, new", CONSISTENT)
def test_the_same_fact_said_two_ways_is_no_conflict(old, new):
    r = relate(Statement(old), Statement(new))
    assert not r.is_conflict, r
