"""Everyday phrasings the pair decision must read, written from general knowledge of how people put things (not
from a labelled set): the same fact said two ways stays consistent, two answers to one question conflict, and
the same attribute of two subjects is no conflict.

Each pair exercises a reader in general (dates with the day first, fractions of an hour, a rate said with a
frequency word, a clock time with a dot, irregular participles, a change whose result is what the record says, a
setting written KEY=value, a file path, a port, a note of several claims, a value that says which subject); a pair
that fails here names a gap in a reader, never a word to add for it.
"""

from __future__ import annotations

import re

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
    # a version bumped on the same thing still differs
    ("The CI image has Python 3.10.", "The CI image was bumped to Python 3.12."),
    # a name between commas after a word for kin says who that person is, as "is called" does
    ("User's dad is called Peter.", "The user's dad, Colin, lives in Leeds."),
    ("User's husband is called Mark.", "User's husband, Daniel, is a teacher."),
    # a setting written in prose with its key as in code says what KEY=value says
    ("LOG_LEVEL is set to debug in staging.", "Staging runs with LOG_LEVEL=warn."),
    ("max_connections is 100 on the primary.", "The primary runs with max_connections=200."),
    # a team named after a project is the project's people
    ("The Orbit team can expense train travel.", "Orbit engineers are not allowed to expense train travel."),
    # the owner's one birthday; and a note that asks something beside what it says still says it
    ("The user's birthday is on 14 March.", "The user was born on 3 April."),
    ("The Vega backup starts at 01:00.", "The Vega backup starts at 03:00. Can we move it earlier?"),
    # who holds a role, when the newer statement also names the older one's holder doing something else
    ("Kai leads the design review.", "The design review is led by Mara, with Kai taking notes."),
    ("Kai leads the design review.", "The design review is run by Mara while Kai is on leave."),
    # a word that says which of a nearer word the other names too qualifies that word, not the head: no rival of
    # the other's qualifier of the head
    ("The Vega REST API timeout is 10 seconds.", "Vega API: read timeout set to 45 s."),
    ("The Quill mobile app session length is 15 minutes.", "Quill app: idle session length set to 2 hours."),
    # an inflected verb, or a word after a modal or a negated auxiliary, is no qualifier of the noun after it
    ("The Kestrel app supports Android 12 and later.", "Kestrel requires Android 14 or newer."),
    ("Omar prefers aisle seats on trains.", "On trains, Omar always books a window seat and dislikes the aisle."),
    ("User likes spicy food.", "User can't handle spicy food at all."),
    # a label list whose first item names the thing: the items after it are about that thing
    (
        "Car: 2019 Toyota Corolla, MOT due in April, insured with Aviva, parked in the garage.",
        "The Corolla is insured with Direct Line now.",
    ),
    # a decimal before a noun, with no name before it, is an amount of that noun, not a version
    ("The boiler pressure should be between 1 and 1.5 bar.", "Boiler pressure should sit at 2.5 bar."),
    ("The app targets the 2.0 release.", "The app targets the 3.0 release."),
    # an acronym and the words it abbreviates are one subject, both for the share and for what anchors it
    ("Pull requests need two approvals.", "PRs need one approval to merge."),
    ("Service level objectives are reviewed every quarter.", "SLOs get reviewed every month."),
    ("Release candidates are cut on Tuesdays.", "RCs get cut every Thursday."),
    # "our" and a word for a group name one owner
    ("The company's fiscal year starts in January.", "Our fiscal year begins in April."),
    ("The team's retro is on Fridays.", "Our retro is on Thursdays."),
    # what a retiring verb's object was replaced with stands where a value goes
    ("The family car is a Skoda Octavia.", "They've replaced the family car with a Kia Niro."),
    ("The hallway lamp is a Habitat Anglepoise.", "Dad replaced the hallway lamp with an IKEA Ranarp."),
    # a stop word contracted with "be" is no name, and puts the name after it where a value goes
    ("The team offsite is in Lisbon.", "We're in Porto for the team offsite."),
    ("Ana lives in Leeds.", "Ana? She's in York these days."),
    ("The Christmas party is at the Waldorf.", "This year's Christmas party? It's at the Savoy."),
    # a negation beside a name that stands where a value goes is about that claim, not a second subject
    (
        "The search cluster runs in AWS eu-west-2.",
        "Search lives in us-east-2 (Ohio); there is no search cluster in any EU region.",
    ),
    (
        "Staging Postgres runs in GCP europe-west1.",
        "Staging Postgres is hosted in us-central1; there is no staging database in Europe.",
    ),
    # the owner word is no name: the thing owned says what a statement is about
    ("User's daily calorie target is 2,200 kcal.", "Calorie goal set at 1,800 per day."),
    ("The user's reading goal is 30 books a year.", "Reading goal: 12 books per year."),
    # a noun denied against the state word of its root, and a state denied of everything
    ("Omar is allergic to shellfish.", "Omar has no allergies."),
    ("Omar isn't allergic to anything.", "Omar is allergic to bee stings."),
    # a name after a class member it belongs to ("in AWS ap-southeast-2") is where a value goes
    ("Production Postgres runs in AWS ap-southeast-2.", "Prod Postgres lives in eu-central-1."),
    ("The analytics warehouse sits in GCP europe-west2.", "The analytics warehouse now sits in us-central1."),
    # a school year, written as an ordinal grade, a grader, a numbered grade or a Year
    ("Sofia is in 2nd grade at Brookside.", "Sofia is a fourth grader at Brookside this year."),
    ("The user's daughter is in 1st grade.", "The user's daughter is a second grader."),
    ("Mia is a third-grader.", "Mia is in grade 4."),
    # who holds a role: a person, then a team named by what it is
    ("The onboarding docs are maintained by Ilse.", "The onboarding docs belong to the platform team now."),
    # two teams as the one doing the role's verb (the verb after the group is qualified too)
    ("The platform team owns the billing service.", "The data team owns the billing service."),
    ("The payments squad maintains the checkout page.", "The growth squad maintains the checkout page now."),
    # ... and a person doing the role's verb, even as the sentence's first word
    ("Ravi owns the billing service.", "The billing service is owned by the platform team now."),
    ("Tom manages the office budget.", "The office budget is managed by the finance department now."),
    ("Priya is the maintainer of the Ferrous crate.", "The Ferrous crate's maintainer is Jonas."),
    # where one works, said with an article ("in the office") as without ("in office")
    ("The user works from home on Mondays and Fridays.", "User is in the office every Monday."),
    ("The team is fully remote.", "The team works in the office three days a week."),
    # a frequency in the thing's name, on both sides, does not make two other frequencies agree
    ("The weekly sync happens every week.", "Our weekly sync now happens every two weeks."),
    ("The monthly report is sent every month.", "The monthly report is sent every quarter."),
    # how often something is replaced is a schedule of its own ("replaced" retires no frequency)
    ("Laptops are replaced every three years.", "Laptops are replaced every five years."),
    # what remains of a whole against what remains
    ("User has 3 physio sessions left.", "User has 5 physio sessions left on the plan."),
    # a deadline moved "to" a date is on that date, not before it
    ("The grant report is due on 30 June.", "The grant report deadline was extended to 31 July."),
    ("The library books are due back on 3 March.", "The library books' due date was extended to 17 March."),
    # what the older statement says stopped, said again by the newer one
    ("User stopped drinking coffee in March.", "User drinks coffee every morning."),
    ("The bakery stopped accepting card payments.", "The bakery accepts card payments."),
    ("We dropped Travis CI.", "Travis CI runs our nightly builds."),
    # what a passive retires is the older statement's value
    ("The project uses Poetry for dependency management.", "We manage dependencies with uv now; Poetry was removed."),
    # who organises or coordinates something holds a role in it
    ("Priya coordinates the school fundraiser.", "The school fundraiser is coordinated by Tom this year."),
    # a short acronym denied ("no CI"); a school after "attends"; a time zone said "US Eastern"
    ("The monorepo has no CI.", "CI for the monorepo runs on Buildkite."),
    ("Nora goes to Riverside Primary.", "Nora attends Oakfield Academy."),
    ("Tomas is in the UTC time zone.", "Tomas's time zone is US Eastern."),
    # a negated passive denies it of what it is said of, the same thing
    ("The ticket includes lunch.", "Lunch isn't included in the ticket."),
    # a light verb that is the whole predicate, denied ("never runs", "doesn't work")
    ("Ola runs every evening.", "Ola never runs."),
    ("The lobby printer doesn't work.", "The lobby printer works again since the repair."),
    # in a role, "Ilse's squad" is who holds it, as "Ilse" is
    ("Mara maintains the docs site.", "The docs site is maintained by Ilse's squad these days."),
    # "the family cat", "the household budget" and "the user's" name one owner
    ("Pepper, the family cat, is a Maine Coon.", "The user's cat Pepper is a Siamese."),
    ("The household budget for takeaways is £120 a month.", "User's takeaway budget is £80 a month."),
    # where a place verb puts someone: the flat and the house go with the place, they are not the subject
    (
        "Ines lives in a one-bedroom flat in Glasgow.",
        "Ines has since moved out of the city centre and lives in a semi-detached house in Paisley.",
    ),
    ("The spare keys are in the kitchen drawer.", "The spare keys hang in the hallway."),
    ("The offsite is in Porto.", "The offsite will be held in Lisbon."),
    ("The printer is on the second floor.", "The printer is on floor 4."),
    ("We deploy with Argo CD.", "Deployments go through Spinnaker."),
    ("The frontend is written in TypeScript.", "The frontend is plain JavaScript."),
    ("CI runs on GitHub Actions.", "CI is on CircleCI."),
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
    ("Smoking is allowed on the balcony.", "Smoking is forbidden on the balcony."),
    ("Smoking is allowed on the balcony.", "Smoking is banned on the balcony."),
    ("Smoking is allowed on the balcony.", "Smoking on the balcony is prohibited."),
    ("The repo is public.", "The repo is private."),
    ("Dark mode is enabled by default.", "Dark mode is off by default."),
    ("The account is active.", "The account is inactive."),
    ("The account is active.", "The account was deactivated."),
    ("The meeting room is available on Fridays.", "The meeting room is booked on Fridays."),
    ("Lunch is included in the ticket.", "Lunch is not included in the ticket."),
    ("The sync is automatic.", "The sync is manual."),
    ("The position is full-time.", "The position is part-time."),
    ("The internship is paid.", "The internship is unpaid."),
    ("The contract is permanent.", "The contract is temporary."),
    ("The backup disk is encrypted.", "The backup disk is unencrypted."),
    ("The shed is locked at night.", "The shed is left unlocked at night."),
    ("Ana is married.", "Ana is single."),
    ("The plant needs full sun.", "The plant needs shade."),
    ("The dog is allowed on the sofa.", "The dog isn't allowed on the sofa."),
    ("Reviews are required before merging.", "Reviews before merging are optional."),
    ("The API is synchronous.", "The API is asynchronous."),
    ("The pool is heated.", "The pool is unheated."),
    ("The flat is furnished.", "The flat comes unfurnished."),
    ("The team has more than ten people.", "The team has fewer than five people."),
    ("We need at least three reviewers.", "Two reviewers are enough."),
    ("Kids under 12 travel free.", "Kids under 12 pay half fare."),
    ("The passports are in the desk drawer.", "The passports are kept in the safe."),
    ("The spare tyre is in the boot.", "The spare tyre is under the car."),
    ("The Christmas decorations are in the loft.", "The Christmas decorations are stored in the garage."),
    ("The first-aid kit is under the kitchen sink.", "The first-aid kit hangs by the back door."),
    ("The router is in the hallway cupboard.", "The router sits on the living room shelf."),
    ("Our team sits on the 4th floor.", "Our team moved to the 6th floor."),
    ("The company is headquartered in Dublin.", "The company's head office is in Amsterdam."),
    ("The offsite venue is the Grand Hotel.", "The offsite is at the Harbour Inn."),
    ("The car is parked on level 2.", "The car is on level 5 of the car park."),
    ("Mum lives in Leeds.", "Mum moved to York last year."),
    ("Dad takes 5 mg of amlodipine daily.", "Dad's amlodipine dose is 10 mg a day."),
    ("The physio appointment is on Thursday at 3 pm.", "Physio is Friday at 11."),
    ("Gran has type 2 diabetes.", "Gran isn't diabetic."),
    ("Sam had his flu jab in October.", "Sam hasn't had a flu jab this year."),
    ("The dog needs his heart pill twice a day.", "The dog's heart medication is once daily."),
    ("Lily wears glasses for reading.", "Lily doesn't need glasses."),
    ("The billing dashboard belongs to the finance team.", "The data team maintains the billing dashboard."),
    ("Hiring for the platform team is run by Grace.", "Platform hiring is now led by Omar."),
    ("Sofia is the on-call engineer this week.", "This week's on-call is Liam."),
    (
        "Team rituals: standup daily at 9:30. Retro every other Friday at 15:00. Planning on Mondays at 10:00. Demo on the last Thursday of the month.",
        "Standup moved to 10:00.",
    ),
    (
        "Team rituals: standup daily at 9:30. Retro every other Friday at 15:00. Planning on Mondays at 10:00. Demo on the last Thursday of the month.",
        "Retro is every Friday now.",
    ),
    (
        "Team rituals: standup daily at 9:30. Retro every other Friday at 15:00. Planning on Mondays at 10:00. Demo on the last Thursday of the month.",
        "Planning is on Tuesdays.",
    ),
    (
        "Kestrel infra notes:\n- Production runs in eu-west-1.\n- Staging runs in eu-central-1.\n- The prod database is Postgres 16.\n- The staging database is Postgres 15.\n- Backups run nightly at 02:00.",
        "Kestrel production is in us-east-1.",
    ),
    (
        "Kestrel infra notes:\n- Production runs in eu-west-1.\n- Staging runs in eu-central-1.\n- The prod database is Postgres 16.\n- The staging database is Postgres 15.\n- Backups run nightly at 02:00.",
        "The Kestrel prod database is Postgres 14.",
    ),
    (
        "Kestrel infra notes:\n- Production runs in eu-west-1.\n- Staging runs in eu-central-1.\n- The prod database is Postgres 16.\n- The staging database is Postgres 15.\n- Backups run nightly at 02:00.",
        "Kestrel backups run at 04:00.",
    ),
    (
        "Notes on Oma's care. Her GP is Dr. Brandt. The physio comes on Tuesdays. Her blood pressure pill is taken in the morning. The pharmacy delivers on Fridays. Her hearing aid batteries are size 312.",
        "Oma's GP is Dr. Keller.",
    ),
    (
        "Notes on Oma's care. Her GP is Dr. Brandt. The physio comes on Tuesdays. Her blood pressure pill is taken in the morning. The pharmacy delivers on Fridays. Her hearing aid batteries are size 312.",
        "Oma's physio comes on Thursdays.",
    ),
    (
        "Notes on Oma's care. Her GP is Dr. Brandt. The physio comes on Tuesdays. Her blood pressure pill is taken in the morning. The pharmacy delivers on Fridays. Her hearing aid batteries are size 312.",
        "Oma takes her blood pressure pill at night.",
    ),
    (
        "Summary of the pricing call: the Starter plan is $9 a month; the Pro plan is $29 a month; annual billing gets two months free; the Enterprise plan is priced per seat.",
        "The Pro plan is $39 a month.",
    ),
    ("The grant report is due 30 June.", "The grant report is due mid-July."),
    ("The tax return must be filed by 31 January.", "The tax return deadline is 31 October."),
    ("The conference CFP closes on Friday.", "The CFP closes next Wednesday."),
    ("The office closes for the holidays from 23 December.", "The office shuts on 20 December for the break."),
    ("The library book is due back on the 14th.", "Return the library book by the 21st."),
    ("The MVP is due by the end of Q2.", "The MVP target moved to Q3."),
    ("The lease runs until August 2026.", "The lease expires in August 2027."),
    ("The API v1 sunset date is 1 April.", "API v1 shuts down at the end of May."),
    ("The staging DB has 200 GB of storage.", "The staging database disk is 500 GB."),
    ("The median build time is 12 minutes.", "A typical build now takes 25 minutes."),
    ("The error budget is 99.9% availability.", "The availability target is 99.5%."),
    ("The team has 8 engineers.", "The team is down to 5 engineers."),
    ("The household budget for food is £400 a month.", "Food budget: £250 per month."),
    ("The model has 7 billion parameters.", "The model has 13 billion parameters."),
    ("The flight takes 11 hours.", "It's a 7-hour flight."),
    ("Wren's CI runs on GitHub Actions.", "Wren pipelines are on Buildkite now.", "Wren CI provider", "Wren pipelines"),
    ("Wren targets Python 3.11.", "Wren was bumped to Python 3.13.", "Wren Python version", "Wren runtime"),
    ("Wren is MIT licensed.", "Wren uses the Apache-2.0 license.", "Wren license", "Wren licensing"),
    ("Wren releases every six weeks.", "Wren ships a release monthly.", "Wren release cadence", "Wren releases"),
    ("Wren stores sessions in Redis.", "Wren sessions live in Postgres.", "Wren DB", "Wren session store"),
    (
        "The Wren API uses API keys.",
        "The Wren API authenticates with OAuth 2.0.",
        "Wren API auth",
        "Wren API authentication",
    ),
    (
        "Wren staging is at https://staging.wren.dev.",
        "Staging for Wren: https://wren-staging.example.com.",
        "Wren staging URL",
        "Wren staging",
    ),
    ("Wren reports errors to Sentry.", "Wren's error reports go to Rollbar.", "Wren error tracking", "Wren errors"),
    ("Wren's frontend is written in Svelte.", "The Wren UI is a React app.", "Wren frontend", "Wren UI stack"),
    ("Wren tests run with pytest.", "Wren's test suite uses unittest.", "Wren test runner", "Wren testing"),
    (
        "Wren code is formatted with Black.",
        "Wren switched its formatter to Ruff.",
        "Wren code style",
        "Wren formatting",
    ),
    (
        "Wren deploys on Wednesdays.",
        "Deploys for Wren happen on Mondays and Thursdays.",
        "Wren deploy day",
        "Wren deployment schedule",
    ),
    ("Wren's frontend uses npm.", "Wren installs JS packages with pnpm.", "Wren package manager", "Wren JS deps"),
    # the day of the month a thing falls on, said as an ordinal with "of the month"
    ("Salaries are paid on the 25th.", "Salaries go out on the last working day of the month."),
    ("Rent is due on the first of the month.", "Rent is due on the 5th of the month."),
    ("Invoices are sent on the last day of each month.", "Invoices go out on the 15th."),
    ("The report is due on the 3rd business day of every month.", "The monthly report is due on the 10th."),
    ("The bins go out on the first Monday of the month.", "The bins go out on the last Monday of the month."),
    # how long a thing lasts is its length, not a limit; a count joined to its noun; an amount that is no year
    ("The warranty lasts two years.", "The warranty is valid for 12 months."),
    ("The film lasts 2 hours.", "The film runs for 95 minutes."),
    ("The apartment has two bedrooms.", "It's a three-bedroom apartment."),
    ("The support team is 4 people.", "It's a six-person support team."),
    ("The loading dock has a limit of 1900 litres.", "The loading dock has a limit of 475 litres."),
    # a decade, its s glued on, is no amount of seconds
    ("The house was built in 1930.", "The house dates from the 1970s."),
    # a negated instruction under the same condition, and a negation that is no condition
    ("Page Priya if the build fails.", "Don't page Priya if the build fails."),
    ("Deploys happen on Fridays.", "Deploys never happen on Fridays unless there's an incident."),
    # not done yet, against a statement that it was done
    ("The passport was renewed in March.", "The passport isn't renewed yet."),
    ("The invoice was paid on 3 May.", "The invoice hasn't been paid yet."),
    ("The contract is signed.", "The contract isn't signed yet."),
    # one clock time in two zones is another instant
    ("The webinar starts at 9:00 CET.", "The webinar starts at 9:00 UTC."),
    ("Standup is at 10:00 EST.", "Standup is at 10:00 CET."),
    ("The call is at 9:00.", "The call is at 11:00 UTC."),
    # a noun's "of" phrase said another way ("backups of the wiki" / "wiki backups")
    ("The owner of the billing service is Priya.", "Chen owns the billing service."),
    ("The price of the basic plan is $9.", "The basic plan costs $12."),
    ("The end of the sprint is Friday.", "The sprint ends on Thursday."),
    ("The size of the team is 8 people.", "The team has 12 people."),
    ("Backups of the wiki are kept for 30 days.", "Wiki backups are kept for a week."),
    ("The deadline for the grant is 1 May.", "The grant deadline is 15 June."),
    # am and pm in capitals; a bare hour opening a range whose end says am or pm
    ("The retro is at 3:00 PM.", "The retro is at 11:00 AM."),
    ("The farmers market runs 9-11am on Sundays.", "The farmers market runs 1-3pm on Sundays."),
    # a version said after a verb is a version of what the sentence names; a currency code before the amount
    ("Our staging Postgres is running version 13.", "Staging Postgres was upgraded to Postgres 15."),
    ("The contractor rate is GBP 500 a day.", "The contractor rate is 700 pounds a day."),
    # an age, however it is said
    ("Ines is 6 years old.", "Ines turned nine in March."),
    # a negated passive is said of what stands before it
    ("The app runs on Ruby 2.7.", "Ruby 2.7 is no longer supported."),
    # a negation with a differing value is one claim denied, not another subject
    ("Backups run every night.", "Backups run weekly; there is no nightly backup."),
    # a model year before a name is which model, never a count ("2015 Golf" / "2021 Golf" were one amount within
    # 20 %, a restatement); a letter with a minus is one word, as one with a plus is
    ("Ana drives a 2015 Golf.", "Ana drives a 2021 Golf."),
    ("Tomas's blood type is B+.", "Tomas's blood type is AB-."),
    # a correction: "X, not Y" rejects what the other says, and X is its new value, not a second subject
    (
        "The new sofa was ordered from Habitat on Oxford Street; delivery is in March.",
        "The sofa was ordered from Heal's, not Habitat.",
    ),
    ("There is no other flavour in stock: only vanilla.", "The shop stocks chocolate and vanilla."),
    # a day of the month against a day of the month, whatever other dates the note gives
    (
        "Car loan: 3.9% until June 2028, repayment of £310 on the 20th.",
        "The car loan repayment goes out on the 3rd of each month.",
    ),
    # the days of a span, both ends ("from 4 to 9 May" was read as "from 9 May on", and 4 to 9 as an amount)
    ("The Lisbon trip runs from 4 to 9 May.", "The Lisbon trip is 12 to 16 May."),
    # words of price are one attribute ("costs" / "pays")
    ("The climbing gym costs $45 a month.", "The user pays $70 a month for the climbing gym."),
    # two numbers of one kind of place differ, whatever else agrees ("room 4 on floor 2" was a restatement)
    ("The workshop is in room 4 on floor 2.", "The workshop is in room 6 on floor 2."),
    ("Pia sits in room 3.14 on the second floor.", "Pia sits in room 5.02 on the fifth floor."),
    # an age joined by hyphens; a bare number per day is the rate of an amount said with "daily"
    ("Ana's puppy is 3 months old.", "Ana's puppy is a 10-month-old spaniel."),
    ("The daily calorie target is 2,200 kcal.", "The calorie target is 1,500 per day."),
    # selling a thing, or moving out of a place, ends what the older statement says of it
    ("Ana drives a Honda Civic.", "Ana sold her Civic last month."),
    ("Ana lives in Leith.", "Ana moved out of Leith in June."),
    # where a person works or studies is one place; a change marker before a name leaves it a value
    ("Priya works at Google.", "Priya works at Meta these days."),
    ("Jonas studies at Leeds.", "Jonas is studying at Durham."),
    ("Our GP is Dr Patel.", "Our GP is now Dr Okafor."),
    # a place inside the place a place verb puts the subject in is where it is too
    ("Ana lives in a flat in Leith.", "Ana now lives in a house in Portobello."),
    # someone a person has, named, is compared by name
    (
        "The user's partner Dan does the school pickup on Mondays.",
        "The user, not Dan, does the school pickup on Mondays.",
    ),
    # married or divorced: one answer at a time
    ("Ana is married to Tom.", "Ana and Tom divorced last year."),
    # an acronym's plural is the acronym; who is on call is a role one person holds at a time
    ("Max PR size is 400 lines.", "PRs should stay under 250 lines."),
    ("Priya is on call this week.", "Chen is on call this week."),
    # a time unit before "rate", "budget", "limit" says per what the amount is
    ("The contractor's day rate is £500.", "The contractor charges £650 per day."),
    # what one verb takes, said with "now" on one side, is that verb's value, not another subject
    ("Tom drives a Honda Civic.", "Tom now drives a Tesla Model 3."),
    ("Ana supports Arsenal.", "These days Ana supports Spurs."),
    # a pet is one kind of animal, of one breed
    ("Ana has a dog named Biscuit.", "Biscuit is Ana's cat."),
    ("Our dog Pip is a whippet.", "Pip is a border collie."),
    # the relative said again with a possessive of its own is the same relative
    ("Ana's mum lives in Cork.", "Ana's mum's house is in Galway now."),
    # a noun's negation covers the noun; the place after it, only when the other says the noun there too
    ("There is no parking at the office.", "The office has 20 parking spaces."),
    # a letter written onto a place's number is part of it ("Flat 3B" / "Flat 3C" were one flat, a restatement)
    ("Ana lives at Flat 3B.", "Ana lives at Flat 3C now."),
    ("The meeting is in Room 2b.", "The meeting is in Room 2a."),
    # a noun after every word two groups share is the group's own head, not a qualifier against an owner
    ("User's car insurance renews in June.", "The car insurance policy renews every September."),
    ("User's phone plan costs $25 a month.", "The phone plan contract costs $40 monthly."),
    # a setting's key is what two assignments are about ("LOG_LEVEL" alone had anchored nothing)
    ("Set LOG_LEVEL=info.", "Set LOG_LEVEL=debug."),
    # a name after "for" that a verb puts there is a value ("booked for Madrid"), as after "comes from"
    ("The conference trip is booked for Madrid in May.", "This year's conference trip is in Berlin."),
    ("Our gas supplier is EDF.", "Our gas comes from Ovo Energy."),
    # "works as", "serves as" say what something is, as "is" does
    ("Sofia works as a pharmacist.", "Sofia is a dental nurse."),
    ("The spare room serves as an office.", "The spare room is a gym."),
    # "takes place at" places an event as "is held at" does
    ("The book launch is held at Foyles.", "The book launch takes place at Waterstones."),
    # a year between the article and a name leaves the name where a value goes ("is a 2019 Specialized Allez")
    ("Priya's bike is a 2019 Specialized Allez.", "Priya's bike is a Cannondale CAAD13."),
    # an executive title is a role one person holds: who holds it is the value
    ("Our CFO is Anita Shah.", "Graham Wells stepped in as CFO last month."),
    # a colour word mid-sentence before a capitalised word starts a name ("Blue Bottle Coffee")
    ("The office coffee is from Blue Bottle Coffee.", "The office coffee now comes from Union Roasters."),
    # "went up to" is a change to the amount, not a limit
    ("Dad takes 25 mg of losartan a day.", "Dad's losartan went up to 50 mg."),
    # two members of one class qualifying a word in what both claim: two answers
    ("The spare key hangs on the green hook.", "The spare key hangs on the yellow hook."),
    # where a vehicle lands or arrives is a place a verb puts it; "User's" on one side pairs with no name
    ("User's ferry lands at Calais.", "The ferry comes into Dunkirk."),
    # a count per unit of time is how often, against a frequency
    ("Grandad takes his tablets three times a day.", "Grandad has two tablets a day."),
    # a hyphenated name and the same words spaced are one phrase, and anchor the pair
    ("The search service is written in Rust.", "search-service is a Python codebase."),
    # two names qualifying one word in what both say of one person: which one is the claim
    ("Omar Reyes is based in the Dublin office.", "Omar Reyes works out of the Madrid office."),
    # micrograms and mcg, kilos and kilograms are units; "every morning" is daily against a dose a day
    ("The baby gets 400 micrograms of vitamin D.", "The baby's vitamin D is 10 mcg."),
    ("The suitcase weighs 23 kilos.", "The suitcase weighs 15 kg."),
    ("User takes 20 mg of omeprazole every morning.", "User's omeprazole dose is 40 mg a day."),
    # "end of day" is a time of day, not the end of a span
    ("The code freeze begins on 10 October.", "Code freeze: 12 October, end of day."),
    # the owner word qualifying a word beside a name both give says whose, not which one
    ("User's colleague Maria Santos lives in Porto.", "Maria Santos (an old school colleague) is based in Lisbon."),
    # a kin word before a name the other statement gives says who; every other weekend is not every weekend
    ("Nadia is with her mum every other weekend.", "User's daughter Nadia spends every weekend at her mum's."),
    # one thing named two ways, familiar and formal or British and American
    ("User's dad lives in Cardiff.", "User's father lives in Swansea."),
    ("The couch is grey.", "The sofa is dark blue."),
    # two members of a class: banks
    ("Joe banks with Lloyds.", "Joe's bank is HSBC."),
    # a diet and a food it leaves out that the subject is said to eat
    ("Priya is vegetarian.", "Priya eats salmon twice a week."),
    ("User is vegan.", "User eats honey on toast every morning."),
    ("Tom is pescatarian.", "Tom orders steak whenever he eats out."),
    # a street address is one value, not a count of roads
    ("User lives at 12 Elmwood Avenue, Leeds.", "User's home address is 7 Carrow Lane, Leeds."),
    # a preference turned around says the other value, and dislikes the old one: one difference, not two subjects
    ("User prefers a window seat on trains.", "Always book the user an aisle seat on trains; they dislike the window."),
    # a value in what both are about ("the Go services") is no claim both agree on: the claims after it differ
    (
        "Errors in the Go services are wrapped with context at every layer.",
        "Errors in the Go services are returned as-is and logged at the edge.",
    ),
    # weekdays joined by slashes or a dash are a set of days
    ("The cleaner comes Mon/Wed/Fri.", "The cleaner comes on Tuesdays and Thursdays."),
    ("The helpdesk is staffed Mon-Fri.", "The helpdesk is staffed on Saturdays only."),
    # a person has one birth date, however it is said
    ("Noor's birthday is on 9 June.", "Noor was born on 27 September."),
    ("Theo was born on 2 February.", "Theo's birthday is 20 February."),
    # a plan or membership has one tier
    ("Our Netflix plan is Standard.", "User's Netflix subscription is the premium tier."),
    ("User's climbing gym membership is off-peak.", "User pays for a peak climbing gym membership."),
    ("Dropbox subscription: Plus.", "The Dropbox subscription is the Essentials tier."),
    # a tier word that is no tier there is part of a name: "Asana Enterprise" is a name against "Team"
    ("Our Asana plan is Team.", "The workspace is on Asana Enterprise."),
    # who runs, hosts or chairs a thing holds a role
    ("Hana runs the Thursday book club.", "The Thursday book club is run by Marcus."),
    ("Tomas hosts the monthly all-hands.", "The monthly all-hands is hosted by the events team."),
    ("Omar chairs the quarterly review.", "The quarterly review is chaired by Grace Lin."),
    ("The weekly shop is done by Sol.", "Ravi does the weekly shop."),
    # people one has for a service hold a role ("designer", "physio")
    ("The Atlas app's designer is Farah.", "Kwame is the designer on the Atlas app."),
    ("User's physio is Dr Kaur.", "User sees Dr Patel for physio."),
    # a name after "is a <noun> at" is where that holds, as after "works at"
    ("Sam is a student at Leeds University.", "Sam studies at Manchester University."),
    # "1:1" is a meeting, as "one-on-one" is
    ("My 1:1 with Tariq is on Thursdays.", "Tariq and I have our one-on-one on Tuesdays."),
    # a title before a name anchors nothing, but an acronym read as a common noun ("GP") does
    ("Our GP is Dr Hale.", "Our GP is now Dr Osei."),
    # a name all the two share, and one measure of it each: one measure of one thing
    ("The Transit van has done 120,000 miles.", "User's Transit is at about 80,000 miles."),
    # the time since a thing was made is its age
    ("The shed was built about 2 years ago.", "The shed is roughly 20 years old."),
    # a place named for a saint is one name, whoever "St Mary's" seems to belong to
    ("Amara is a nurse at St Thomas' Hospital.", "Amara is a nurse at St. Mary's Hospital."),
    # taken "off" a thing is no longer on it
    ("Dad is on warfarin.", "The cardiologist took Dad off warfarin last year."),
    ("Grandad came off the school run rota.", "Grandad is on the school run rota."),
    ("User is off sugar.", "User has sugar in coffee."),
    # sharing a thing and having one's own of it
    ("Sam and Ola share a car.", "Sam and Ola each have their own car."),
    ("The twins share a bedroom.", "The twins have separate bedrooms."),
    # the older says a thing ended, the newer that it goes on
    ("Joe left the choir last spring.", "Joe still sings in the choir."),
    ("User quit smoking last year.", "User still smokes after dinner."),
    ("Kai used to cycle to work.", "Kai still cycles to work every day."),
    # one thing of an owner, at two times; a possessive thing is no owner ("the hall's capacity")
    ("User's weekly pottery class is on Monday evenings.", "User's weekly pottery class is on Wednesday evenings."),
    ("The hall's capacity is 200 people.", "The village hall holds 150 guests."),
    ("Daily active users are roughly 12k", "Daily active users are roughly 40k"),
    # a name after a value the verb also took is where a value goes ("is in Year 5 at ...")
    ("Ava is in Year 5 at Greenfield Primary.", "User's daughter Ava goes to Oakwood Primary School."),
    ("The team is on floor 3 at Harbour House.", "The team sits in Quay Tower."),
    # booked and cancelled are two states of one plan, whatever noun each calls it
    ("The Porto weekend in May is booked.", "The Porto break was cancelled."),
    # "Max" opening a sentence is a name when "is" or "the <kind of animal>" follows, not a bound
    ("Max is 4 years old.", "Max the spaniel is 6 years old."),
    # one value said to be the only one of its kind, another of that kind on the other side ("their only car",
    # "the only vet they use", "the one inbox anyone reads", "squash commits only")
    ("Ben's bike is a grey Brompton.", "Ben rides a green Trek hybrid, his only bike."),
    (
        "Juno is registered at Riverside Vets on Mill Lane.",
        "The user's cat Juno is a patient at Hillcrest Animal Clinic — that's the only vet they use.",
    ),
    (
        "Bug reports for Kestrel go to bugs@acme.io.",
        "Problems with Kestrel should be mailed to triage@kestrel.dev; that is the one inbox anyone reads.",
    ),
    ("Pull requests land as merge commits.", "Pull requests land as squash commits only."),
    (
        "Business class is allowed on flights over 8 hours.",
        "Travel rules: economy class only, however long the flight.",
    ),
    # a rank in a rotation: one person is primary or secondary on-call for a week, not both
    ("User is primary on-call this week.", "User is secondary on-call this week."),
    ("Ana is the primary contact for Acme.", "Ana is the secondary contact for Acme."),
    # the memory's own person holds a role the other gives a named person ("I maintain" / "maintained by Jonas")
    ("I maintain the deploy scripts.", "The deploy scripts are maintained by Jonas."),
    ("User manages the household budget spreadsheet.", "Sam manages the household budget spreadsheet."),
    ("The school WhatsApp group is run by the user.", "Hannah runs the school WhatsApp group."),
    # two words of one root name one thing ("dentist" / "dental")
    ("The dentist appointment is on Oct 2.", "The dental appointment is on Oct 9."),
    # a yearly allowance of days against days of it a year: one rate, two amounts ("annual" / "a year")
    ("Sam's annual leave allowance is 22 days.", "Sam gets 26 days of holiday a year."),
    # a capitalised opener both share is a name when each goes on to name its own thing; a common word the
    # vocabulary knows is not ("Rubbish" / "Trash")
    ("Atlas deploys take 5 minutes.", "Atlas deploys take 20 minutes."),
    ("Rubbish pickup is on Tuesday mornings.", "Trash collection is on Thursdays."),
    # two measures of one thing
    ("The server has 40 GB of memory.", "The server now has 64 GB of memory."),
    # the denied thing is the other's, qualifier and all; the other qualifier is of another mention
    ("Tom has a Herman Miller office chair.", "Tom sits on a kitchen chair and doesn't own an office chair."),
    # people called by what they are to someone ("the kids'") and people named may be the same people
    ("The kids' swimming lesson is at 5 pm.", "Ella and Sam's swimming lesson starts at 6 pm."),
    # a role's noun and its verb, both of the role, are one subject word ("maintainer" / "maintained")
    ("Priya is the maintainer of Ferrous.", "Ferrous is maintained by Jonas."),
    ("Dana is the organiser of Quillcon.", "Quillcon is organised by Marcus."),
    # denied at a time the other says it at, among others
    ("The office isn't open on Sundays.", "The office is open on Saturdays and Sundays."),
    # "Apt" before the number that says which one is an apartment, not the package manager
    ("User lives in Apt 4a.", "User lives in Apt 4b."),
    ("The CI image installs packages with apt.", "The CI image installs packages with Homebrew."),
    # "=" with spaces round it is "is", as "KEY=value" and "port: 9090" are
    ("API port = 8000", "The API listens on port 9000."),
    ("Session timeout = 30 minutes", "The session timeout is one hour."),
    # a number spelled out says which one of a numbered place, as digits do
    ("The coffee machine is on floor three.", "The coffee machine is on floor five."),
    ("Boarding for the Lisbon flight is at gate twelve.", "The Lisbon flight boards at gate 14."),
]

CONSISTENT = [
    # the older statement's holder among the newer one's: a second holder beside the first
    ("Kai leads the design review.", "The design review is led by Mara and Kai."),
    ("Kai leads the design review.", "Mara and Kai lead the design review together."),
    # only the memory's own person in common: two things of theirs at two times, or put two ways
    ("The user's eye test is on 4 February.", "The user's car insurance renews in June."),
    ("The user is allergic to shellfish.", "The user is learning Japanese."),
    # a team named after the thing the other is about is its people, not the thing
    ("The search index rebuilds nightly at 03:00.", "The search team holds its retro on Fridays at 15:00."),
    # a question asserts nothing
    ("The Vega backup runs nightly at 01:00.", "Question: should the Vega backup report go out weekly?"),
    # a name before a role word used as a noun holds no role ("on-call rotation")
    ("The Vega on-call rotation hands over on Mondays.", "Noor owns the Vega service, including on-call."),
    # a name after the verb that qualifies no word the other's name qualifies: another detail
    ("Priya works at Google in London.", "Priya works at Google in the King's Cross office."),
    # names a role verb takes, qualifying one word: two things one person holds
    ("Kofi maintains the Lumen dashboard.", "Kofi maintains the Orbit dashboard."),
    # a kind of rent and the user's rent, no name beside either: two rents
    ("The allotment rent is paid once a year, in April.", "User's monthly rent is $2,400."),
    # the same said with a familiar word and a formal one
    ("User's mum lives in Leeds.", "User's mother lives in Leeds."),
    ("The kids go to bed at 7:30.", "The children's bedtime is 7:30 pm."),
    # one bank said with the noun and with the verb
    ("Joe banks with Lloyds.", "Joe's bank is Lloyds."),
    # a food the diet allows, a food denied, cooking is not eating
    ("User is vegetarian.", "User eats eggs and cheese."),
    ("User is pescatarian.", "User eats fish but no meat."),
    ("User is vegan.", "User eats no meat, fish, eggs or dairy."),
    ("User is vegetarian.", "User cooks chicken for the kids."),
    # one street address said two ways
    ("User lives at 12 Elmwood Avenue, Leeds.", "User's home is 12 Elmwood Avenue."),
    # a preference and a dislike of two things
    ("User prefers the front row at the cinema.", "User dislikes the balcony at the theatre."),
    # every weekend is Saturdays and Sundays
    ("User hikes every weekend.", "User hikes on Saturdays and Sundays."),
    # one of the days a slashed list gives
    ("The cleaner comes Mon/Wed/Fri.", "The cleaner comes on Wednesdays."),
    # a dose every morning and the same dose a day; kilos and kilograms
    ("User takes 20 mg of omeprazole every morning.", "User's omeprazole dose is 20 mg a day."),
    ("The suitcase weighs 23 kilos.", "The suitcase weighs 23 kg."),
    # one span's start and its end, the end said as "ends"
    ("The code freeze begins on 10 October.", "The code freeze ends on 12 October."),
    # a denial of one person's state and the state of someone they have; a state denied of everything, twice
    ("Ruth is allergic to pollen.", "Ruth's son has no allergies."),
    ("Ruth has no allergies.", "Ruth isn't allergic to anything."),
    ("Ines lives in a one-bedroom flat in Glasgow.", "Ines works in a small design studio in Edinburgh."),
    ("The family cat is called Pepper.", "The user's neighbour's cat is called Mango."),
    ("Production Postgres runs in AWS ap-southeast-2.", "Staging Postgres lives in eu-central-1."),
    # a light verb denied with something after it, or wanted, is no denial of the verb itself
    ("The backup job doesn't run on Sundays.", "The backup job runs nightly at 2 am."),
    ("Kai doesn't work on Fridays.", "Kai works at Google."),
    ("Ola wants to run a marathon.", "Ola never runs."),
    ("Ravi owns the billing service.", "Ravi's team owns the search service."),
    # a reading of two bare numbers is no amount of time; a bare number is read in the other side's unit
    (
        "Dad's blood pressure was 135/85 at the March checkup.",
        "The GP wants to recheck Dad's blood pressure in six weeks.",
    ),
    ("The backup retention is 90.", "Backups are kept for 90 days."),
    # a bare number the other side writes too is that number, not an amount in the other's unit
    ("User runs 5k three times a week.", "User's best 5k time is 24 minutes."),
    ("The office printer is on floor 3.", "Printer 3 jams about twice a week."),
    # two things on two versions of one runtime: naming the runtime alike anchors nothing
    ("Builds use Node 18.", "The lambda runtime is Node 20."),
    ("The CI image has Python 3.10.", "The data notebooks run Python 3.12."),
    # the same name in apposition agrees; two kin of one name are two people
    ("User's husband is called Mark.", "User's husband, Mark, is a teacher."),
    ("User's husband, Daniel, is a teacher.", "User's brother, Daniel, is a nurse."),
    # a setting in prose differs with the environment it is set in: two settings, not one answer
    ("LOG_LEVEL is set to debug in staging.", "LOG_LEVEL is set to warn in production."),
    ("max_connections is 100 on the primary.", "The primary runs with max_connections=100 and 4 GB of RAM."),
    # a verb where the other names what it is about is not one answer put for another
    ("User banks with Nationwide.", "User's mortgage is with Nationwide."),
    ("Priya shops at Waitrose.", "Priya's pharmacy is at Waitrose."),
    # a verb's base form before a noun is a qualifier still: a start date and an end date are two dates
    ("The contract start date is 1 May.", "The contract end date is 30 June."),
    ("The work laptop is a ThinkPad.", "The home laptop is a MacBook Air."),
    # a decimal amount of a noun agrees within the drift, as any amount does
    ("The tyre pressure is 2.2 bar.", "Tyre pressure should be about 2.3 bar."),
    # an acronym abbreviates whole words only
    ("PRs need one approval to merge.", "Pull-down menus need one click."),
    # "our" against someone named is still two owners
    ("Our car is a Honda Jazz.", "Jen's car is a Fiat 500."),
    ("Our retro is on Thursdays.", "Priya's retro is on Fridays."),
    # a role word that a form of "be" follows is the head of what a statement is about, not its verb
    ("User's yoga class is on Wednesdays.", "User's yoga teacher is called Anya."),
    ("The kids' swimming lesson is on Saturday mornings.", "The kids' swimming coach is called Dev."),
    # a stop word contracted with a verb is no name of another subject
    ("The team offsite is in Lisbon.", "We're flying to Lisbon on Tuesday."),
    # a negation beside a name where a value goes, with another subject named too, is still another subject
    (
        "Staging Postgres runs in GCP europe-west1.",
        "Production Postgres is hosted in us-central1; there is no production database in Europe.",
    ),
    # each side gives a kind of value the other does not: two attributes, not one answer for another
    ("The marina office can be reached by email at office@northmarina.example.", "The office is on the fifth floor."),
    ("The clinic can be reached by email at desk@clinic.example.", "The clinic opens at 8:00."),
    # the owner word is no name: the thing owned says what a statement is about
    ("User's monthly phone bill is £30.", "The phone contract is with Vodafone."),
    # a relative named in apposition is still someone else; a first letter replaced is another word
    ("The user's Q2 bonus was €3,000.", "The user's partner Lou got a €1,800 bonus in Q2."),
    ("The user's maternal grandfather lives in Cork.", "The user's paternal grandfather lives in Derry."),
    ("User's gym membership costs $45 a month.", "User's streaming subscriptions cost $30 a month in total."),
    ("The report deadline is 31 July.", "The report is due on 31 July."),
    ("User works from home on Tuesdays.", "User is in the office on Mondays and Wednesdays."),
    # a verb of change with how often it is done says what happens each time, not that something changed
    ("Laptops must be encrypted with FileVault.", "Laptops are replaced every three years."),
    ("The office uses a shared printer.", "The printer toner is replaced every month."),
    # a bare verb after a plural noun ends the phrase the statement is about: the environment in it says which
    ("Production deploys are frozen during December.", "Staging deploys continue in December."),
    # a count of nights says how long, not when
    ("Hotel in Porto booked for three nights.", "Check-in at the Porto hotel is from 15:00."),
    (
        "Trip summary: flying to Lisbon on 4 June with TAP, staying at Casa Amora for four nights.",
        "The TAP flight to Lisbon leaves at 07:10.",
    ),
    # "also" in a sentence's first clause adds a fact beside the other one
    ("User's daughter is allergic to eggs.", "User's daughter is also allergic to peanuts."),
    ("Tom plays the guitar.", "Tom also plays the drums."),
    ("The office has a gym.", "The office also has a roof terrace."),
    # what remains of a whole is not the whole, and "left" after an amount is no change
    ("User's annual leave allowance is 25 days.", "User has 8 days of leave left this year."),
    ("The physio plan covers 10 sessions.", "User has 3 physio sessions left."),
    ("The monthly grocery budget is £400.", "There's £120 left in this month's grocery budget."),
    ("The project runs for 6 months.", "The project has 12 weeks to go."),
    # a change whose result is what the older statement says, or that retires what it denies, confirms it
    ("CI runs on GitHub Actions.", "Jenkins was replaced by GitHub Actions last year."),
    ("The team chats on Teams.", "Slack has been dropped; the team chats on Teams."),
    ("We use Buildkite for CI.", "We replaced Jenkins with Buildkite in 2024."),
    ("The service has no Redis dependency.", "Redis was removed from the service."),
    # a team written as whose ("the search team's on-call", "for the mobile team") holds no role
    ("The search team's on-call escalates to Ingrid.", "The payments team's on-call escalates to Rafael."),
    ("Support for the mobile team is handled by Ana.", "Support for the web team is handled by Ben."),
    # a role after "a" / "an" is one of several who hold it
    ("Ana is a manager at Acme.", "Tom is a manager at Acme."),
    ("Priya is a maintainer of the Ferrous crate.", "Jonas is a maintainer of the Ferrous crate."),
    ("Sofia is a senior product manager at Acme.", "Tom is a product manager at Acme."),
    ("The monorepo has no CI.", "The docs site has CI on GitHub Actions."),
    ("The onboarding docs are maintained by Ilse.", "Ilse's team maintains the onboarding docs."),
    ("The onboarding docs are maintained by Ilse.", "The platform team maintains the API reference."),
    ("Mei maintains the deploy scripts.", "The infra team reviews every change to the deploy scripts."),
    ("Omar handles payroll questions.", "The HR team handles holiday requests."),
    ("Mia is in 3rd grade.", "Mia is a third grader at Hillside."),
    ("Mia is in 3rd grade.", "Mia's brother is in 5th grade."),
    ("The invoice is due on the 3rd.", "Payroll runs on the 5th."),
    # a negated passive says nothing of what the other statement says is included ("not included in the day rate")
    ("The day rate includes lunch.", "Parking is not included in the day rate."),
    ("The ticket includes the ferry.", "Lunch is not included in the ticket price."),
    # whose, said before a frequency word ("User's monthly rent"), still says which rent
    ("The garage rent is paid once a year.", "User's monthly rent is $2,100."),
    ("The boat mooring fee is paid once a year.", "Kim's monthly mooring fee is £90."),
    ("Set LOG_LEVEL=info.", "Set LOG_FORMAT=json."),
    ("The meeting is in Room 2b.", "The weekly meeting is held in room 2B."),
    ("There is no parking at the office.", "The office opens at 8am on weekdays."),
    # "either" ending a negated sentence adds a second fact, as "too" does
    ("The repo has no CI.", "The repo has no README either."),
    ("Ana lives in Leith.", "Ana's sister's flat is in Portobello."),
    ("Ana has a dog named Biscuit.", "Ana also has a cat called Mo."),
    ("Max, our labrador, eats 250 g of food a day.", "Millie, our other labrador, eats 300 g of food a day."),
    ("Tom drives a Honda Civic.", "Tom drives a Tesla Model 3 for work."),
    ("Tom likes Radiohead.", "Tom now likes Blur too."),
    ("The contractor's day rate is £500.", "The contractor's rate is £500 a day."),
    ("The trial has a 3 day limit.", "The trial is limited to three days."),
    ("Priya is on call this week.", "Chen is on call next week."),
    ("Ana is married to Tom.", "Ana married Tom in 2015 in Cork."),
    # a person and someone that person has are two people
    ("Ana lives in Leith.", "Ana's sister lives in Portobello."),
    ("Rent for the user's flat is EUR 1,450 a month.", "Rent for the user's parents' flat is EUR 900 a month."),
    ("User is vegetarian.", "User's partner eats meat."),
    ("Priya works at Google.", "Priya's husband works at Meta."),
    ("Jonas studies at Leeds.", "Jonas studies with Dr Hale."),
    ("Sam shops at Lidl for groceries.", "Sam shops at Decathlon for running gear."),
    ("Ana's puppy is a 6-month-old spaniel.", "Ana's puppy is six months old."),
    ("The daily calorie target is 2,200 kcal.", "The calorie target is 2,200 per day."),
    ("Ana sold her old bike in 2020.", "Ana rides a Brompton to work."),
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
    ("The nightly build kicks off at 11 pm.", "The nightly build starts at 23:00."),
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
    # a nearer word qualified two ways still says which one, however long the phrase
    ("The production database server is in Frankfurt.", "The staging database server is in Dublin."),
    ("The iOS app build time is 12 minutes.", "The Android app build time is 30 minutes."),
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
    ("Smoking is forbidden indoors.", "Nobody may smoke indoors."),
    ("The repo is private.", "The repo isn't public."),
    ("Dark mode is enabled by default.", "Dark mode is on by default."),
    ("The sync is manual.", "The sync is not automatic."),
    ("The event is free.", "There's no charge for the event."),
    ("The internship is paid.", "Interns get a salary."),
    ("Bikes are not permitted inside.", "No bikes inside."),
    ("Pets are welcome.", "Pets are allowed."),
    ("The backup disk is encrypted.", "Encryption is turned on for the backup disk."),
    ("The shop is closed on Sundays.", "The shop doesn't open on Sundays."),
    ("The passports are in the desk drawer.", "Passports: top drawer of the desk in the study."),
    ("The router is in the hallway cupboard.", "The router is in the cupboard in the hallway, behind the coats."),
    ("Mum lives in Leeds.", "Mum's house in Leeds has a big garden."),
    ("Dad takes 5 mg of amlodipine daily.", "Dad is on amlodipine, 5 mg every morning."),
    ("Noah is allergic to penicillin.", "Noah can't have penicillin; he gets a rash."),
    ("The vet said Rex should lose 3 kg.", "The vet wants Rex to lose about three kilos."),
    ("Priya is 28 weeks pregnant.", "Priya is due in March."),
    ("The billing dashboard belongs to the finance team.", "Finance owns the billing dashboard."),
    ("Hiring for the platform team is run by Grace.", "Grace runs platform hiring."),
    ("Our landlord is Mr. Pike.", "The flat is owned by Mr. Pike."),
    (
        "Team rituals: standup daily at 9:30. Retro every other Friday at 15:00. Planning on Mondays at 10:00. Demo on the last Thursday of the month.",
        "The retro is at 3 pm on alternate Fridays.",
    ),
    (
        "Team rituals: standup daily at 9:30. Retro every other Friday at 15:00. Planning on Mondays at 10:00. Demo on the last Thursday of the month.",
        "Standup is at half past nine every day.",
    ),
    (
        "Team rituals: standup daily at 9:30. Retro every other Friday at 15:00. Planning on Mondays at 10:00. Demo on the last Thursday of the month.",
        "Planning happens Monday mornings at 10.",
    ),
    (
        "Team rituals: standup daily at 9:30. Retro every other Friday at 15:00. Planning on Mondays at 10:00. Demo on the last Thursday of the month.",
        "The demo is at the end of the month, on a Thursday.",
    ),
    (
        "Kestrel infra notes:\n- Production runs in eu-west-1.\n- Staging runs in eu-central-1.\n- The prod database is Postgres 16.\n- The staging database is Postgres 15.\n- Backups run nightly at 02:00.",
        "Kestrel staging is hosted in eu-central-1.",
    ),
    (
        "Kestrel infra notes:\n- Production runs in eu-west-1.\n- Staging runs in eu-central-1.\n- The prod database is Postgres 16.\n- The staging database is Postgres 15.\n- Backups run nightly at 02:00.",
        "Kestrel's production database runs Postgres 16.",
    ),
    (
        "Kestrel infra notes:\n- Production runs in eu-west-1.\n- Staging runs in eu-central-1.\n- The prod database is Postgres 16.\n- The staging database is Postgres 15.\n- Backups run nightly at 02:00.",
        "Kestrel staging uses Postgres 15 for its database.",
    ),
    (
        "Notes on Oma's care. Her GP is Dr. Brandt. The physio comes on Tuesdays. Her blood pressure pill is taken in the morning. The pharmacy delivers on Fridays. Her hearing aid batteries are size 312.",
        "Oma's physio visits are on Tuesdays.",
    ),
    (
        "Notes on Oma's care. Her GP is Dr. Brandt. The physio comes on Tuesdays. Her blood pressure pill is taken in the morning. The pharmacy delivers on Fridays. Her hearing aid batteries are size 312.",
        "Oma takes her blood pressure tablet every morning.",
    ),
    (
        "Notes on Oma's care. Her GP is Dr. Brandt. The physio comes on Tuesdays. Her blood pressure pill is taken in the morning. The pharmacy delivers on Fridays. Her hearing aid batteries are size 312.",
        "The pharmacy drops off Oma's medicine on Fridays.",
    ),
    (
        "Summary of the pricing call: the Starter plan is $9 a month; the Pro plan is $29 a month; annual billing gets two months free; the Enterprise plan is priced per seat.",
        "Pro costs $29 per month.",
    ),
    (
        "Summary of the pricing call: the Starter plan is $9 a month; the Pro plan is $29 a month; annual billing gets two months free; the Enterprise plan is priced per seat.",
        "The Starter plan costs $9/month.",
    ),
    (
        "Summary of the pricing call: the Starter plan is $9 a month; the Pro plan is $29 a month; annual billing gets two months free; the Enterprise plan is priced per seat.",
        "Paying annually gives two months free.",
    ),
    ("The grant report is due 30 June.", "The grant report deadline is the end of June."),
    ("The conference CFP closes on Friday.", "CFP submissions close this Friday at midnight."),
    ("The car insurance renews in March.", "Car insurance renewal: early March."),
    ("Q3 planning starts the week of 7 July.", "Q3 planning kicks off on 7 July."),
    ("The API v1 sunset date is 1 April.", "API v1 will be turned off on April 1st."),
    ("The staging DB has 200 GB of storage.", "Staging DB storage: 0.2 TB."),
    ("The median build time is 12 minutes.", "Builds take about 12 min on average."),
    ("The error budget is 99.9% availability.", "Our SLO is three nines."),
    ("The team has 8 engineers.", "There are eight engineers on the team."),
    ("The household budget for food is £400 a month.", "We spend about £100 a week on food."),
    ("The model has 7 billion parameters.", "It's a 7B-parameter model."),
    ("Max file size for uploads is 2 GB.", "Uploads are limited to 2048 MB."),
    ("The flight takes 11 hours.", "The flight is about eleven hours long."),
    (
        "Wren's CI runs on GitHub Actions.",
        "Wren's GitHub Actions jobs cache pip wheels.",
        "Wren CI provider",
        "Wren CI caching",
    ),
    (
        "Wren targets Python 3.11.",
        "Wren supports Python 3.11 and 3.12.",
        "Wren Python version",
        "Wren supported Pythons",
    ),
    (
        "Wren releases every six weeks.",
        "Every six weeks Wren cuts a release from main.",
        "Wren release cadence",
        "Wren release process",
    ),
    (
        "Wren stores sessions in Redis.",
        "Session data for Wren is kept in Redis with a 24h TTL.",
        "Wren DB",
        "Wren sessions",
    ),
    (
        "Wren's frontend is written in Svelte.",
        "Wren's Svelte frontend is built with Vite.",
        "Wren frontend",
        "Wren UI build",
    ),
    (
        "Wren code is formatted with Black.",
        "Wren runs Ruff for linting, Black for formatting.",
        "Wren code style",
        "Wren lint",
    ),
    ("Wren runs at least 2 replicas.", "Wren scales from 2 to 10 replicas.", "Wren min replicas", "Wren scaling"),
    # the day of the month, said two ways; another day that is no day of a month
    ("Rent is due on the first of the month.", "Rent is due on the 1st."),
    ("Payday is the last working day of the month.", "We get paid on the last working day of each month."),
    ("Rent is due on the first of the month.", "The rent is \u20ac1,200 a month."),
    ("The first day of the trip is in Porto.", "Rent is due on the 5th of the month."),
    ("The bins go out on the first Monday of the month.", "The bins go out on the first Monday of every month."),
    # the same length or count said two ways
    ("The warranty lasts two years.", "The warranty is valid for 24 months."),
    ("The trial lasts up to 30 days.", "The trial runs for 14 days."),
    ("The support team is 4 people.", "It's a four-person support team."),
    ("We rent a 3-bedroom flat.", "The flat has three bedrooms."),
    ("The soak lasts 6 h.", "The soak takes six hours."),
    # a verb the lists do not know ends the phrase a statement is about as well
    ("The printer on the 2nd floor is out of paper.", "The 4th floor printer jams a lot."),
    ("The kettle on the 3rd floor is broken.", "The 5th floor kettle leaks a little."),
    # a negation inside a condition (if, unless, whenever) asserts nothing
    (
        "Escalation after 15 minutes goes to the team lead.",
        "Pinecrest pages the secondary if the primary doesn't ack in 5 minutes.",
    ),
    ("The picnic is on Saturday.", "If it doesn't rain, the picnic is on Saturday."),
    ("The gate is locked at night.", "Call security if the gate isn't locked at night."),
    ("The heating is on in winter.", "Tell the landlord if the heating isn't on by November."),
    # not done yet, against what is planned or asked for
    ("The release ships on Friday.", "The release hasn't shipped yet."),
    ("The migration starts on Monday.", "The migration hasn't started yet."),
    ("Renew the passport before June.", "The passport isn't renewed yet."),
    ("The contract will be signed next week.", "The contract isn't signed yet."),
    # one instant in two zones (compared in UTC, across midnight too)
    ("The webinar starts at 9:00 CET.", "The webinar starts at 8:00 UTC."),
    ("Standup is at 10:00 EST.", "Standup is at 16:00 CET."),
    ("The maintenance window is 23:00-01:00 UTC.", "The maintenance window is 00:00-02:00 CET."),
    ("The call is at 17:00 PST.", "The call is at 01:00 UTC."),
    ("The call is at 9:00.", "The call is at 9:00 UTC."),
    # what a noun is of says which one ("backups of the wiki" / "of the mail server")
    ("Backups of the wiki are kept for 30 days.", "Backups of the mail server are kept for a year."),
    ("The price of the basic plan is $9.", "The price of the pro plan is $29."),
    ("The owner of the billing service is Priya.", "The owner of the search service is Chen."),
    ("The contractor rate is GBP 500 a day.", "The contractor rate is 500 pounds a day."),
    ("The farmers market runs 9-11am on Sundays.", "The farmers market is open from 9 to 11 am on Sundays."),
    # a word alone in quotes is a name; a hyphen-joined noun group says which one
    ("Project 'lumen' uses pnpm.", "Project 'quartz' uses npm."),
    ("The billing-service is owned by Dara.", "The reporting-service is owned by Kofi."),
    ("Ana drives a 2015 Golf.", "Ana's car is a Golf from 2015."),
    ("The 2019 MacBook Pro has 16 GB of RAM.", "The 2019 MacBook Pro's memory is 16 GB."),
    # a statement that says it adds ("also", "as well") gives a second fact beside the first
    (
        "Swimming lessons for Ivy are on Mondays at 5pm with coach Rosa.",
        "Rosa also teaches Ivy's gymnastics class on Wednesdays.",
    ),
    ("Grandpa collects the twins on Tuesdays.", "Grandpa collects the twins on Thursdays as well."),
    # the other one of a kind both name is another subject
    ("Our cat Pip eats 60 g of wet food a day.", "Our other cat, Luna, eats 80 g of wet food a day."),
    # one's own thing and someone named's are two ("my" / "Jen's")
    ("My pottery class is on Thursdays at 7pm.", "Jen's pottery class is on Mondays at 6pm."),
    # a note that opens with what it is about, set off by a colon or a bracket: a number there says which one
    ("Bay 3 at the depot (the blue van's spot): £40 a week.", "Bay 5 at the depot is let for £170 a month."),
    # a change said inside "when ..." or a condition is awaited, not done
    (
        "The boiler is booked in with Nordgas on Thursday for a service; the quote was £90.",
        "Nordgas will text when the boiler service is finished.",
    ),
    ("The car is at Kwik Fit for new tyres.", "Kwik Fit will call when the tyres are replaced."),
    # two amounts of money said of two things, neither named in the other statement (nor a price)
    ("The joint account's overdraft limit is £1,500.", "The joint account's balance is about £900."),
    # "turns 8 on 3 March" is a birthday to come, not the age now
    ("Ida is 7.", "Ida turns 8 on 3 March."),
    # a move to what the other says confirms it ("grew up in Aarhus before moving to Copenhagen")
    ("Jonas lives in Copenhagen.", "Jonas grew up in Aarhus before moving to Copenhagen."),
    # a day inside a span agrees with it
    ("The Lisbon trip runs from 4 to 9 May.", "The flight to Lisbon leaves on 4 May."),
    ("Conference: 3-5 June.", "The conference is on 4 June."),
    # whose: "the kids'" and the user's own
    ("The kids' dentist is Dr Ong.", "The user's own dentist is Dr Berg."),
    # a negation inside a condition of several words ("as long as") asserts nothing
    (
        "The receipt for the kettle is in the kitchen drawer.",
        "The shop takes the kettle back without the box as long as you have the receipt.",
    ),
    # a participle denied of something else ("is not used by the mobile team" says who does not use it)
    ("The web app uses Redux 4.", "Redux 4 is not used by the mobile team."),
    # after a noun, "for" still says which subject (a noun ending in "-ing" is no participle)
    ("Staging for Atlas resets every Sunday night.", "Staging for Wren resets every Sunday night."),
    # a qualifier is not the name it is written in elsewhere ("home" of "Home Protect" left "home insurer" one with
    # "car insurer")
    ("The car insurer is Admiral.", "The home insurer is Home Protect."),
    # each side says its value twice, once as the subject's qualifier: two subjects ("Go" as a name is no verb)
    ("Java services run on Java 17.", "Kotlin services run on Kotlin 1.9."),
    ("Go workers are built with Go 1.22.", "Rust workers are built with Rust 1.75."),
    ("Sofia works as a pharmacist.", "Sofia works at Boots."),
    ("Sofia works as a pharmacist.", "Sofia is a keen climber and a pharmacist."),
    ("The book launch takes place at Foyles.", "The book launch is at Foyles on Charing Cross Road."),
    ("The book launch takes place at Foyles.", "The author signing takes place at Waterstones."),
    ("Priya's bike is a 2019 Specialized Allez.", "Priya bought the Specialized Allez second-hand."),
    ("Our CFO is Anita Shah.", "Anita Shah has been CFO since 2021."),
    ("Our CFO is Anita Shah.", "Our CEO is Mark Evans."),
    ("Dad takes 25 mg of losartan a day.", "Dad's losartan can go up to 100 mg if needed."),
    ("The office coffee is from Blue Bottle Coffee.", "Blue Bottle Coffee delivers the office coffee on Mondays."),
    # in what the two are about, a colour says which one
    ("The blue mug is in the cupboard.", "The red mug is in the dishwasher."),
    ("User's ferry lands at Calais.", "The ferry lands at Calais at 14:00 local time."),
    ("Grandad takes his tablets twice a day.", "Grandad has two tablets a day, with meals."),
    ("The search service is written in Rust.", "search-service has its own on-call rota."),
    ("Per the handbook, new hires get 25 days of annual leave.", "New hires get 25 days of leave a year."),
    # one birth date said two ways; a party on another day is no birth date
    ("Noor's birthday is on 9 June.", "Noor was born on 9 June."),
    ("Noor was born on 9 June.", "Noor's birthday is 9 June."),
    ("Noor's birthday party is on 14 June.", "Noor was born on 9 June."),
    ("Noor was born in 2016.", "Noor's birthday is on 9 June."),
    # a tier word beside a plan on both sides, or of two products, or whose plan it is
    ("We're on the Pro plan.", "The Pro plan includes SSO."),
    ("User's Spotify plan is Family.", "User's Netflix plan is Premium."),
    ("The family's broadband plan is 500 Mbps.", "The family's broadband plan costs £35 a month."),
    # "runs" without a thing after it holds no role
    ("Hana runs the Thursday book club.", "Hana runs the book club every Thursday."),
    ("The backup job runs nightly.", "The platform team owns the backup job."),
    ("The weekly shop is done by Sol.", "The weekly shop is done on Saturdays."),
    # two roles, each with its own holder: a title ("Dr") both write is no shared subject
    ("User's physio is Dr Kaur.", "User's dentist is Dr Patel."),
    ("Sam is a student at Leeds University.", "Sam's brother studies at Manchester University."),
    ("Mix the paint 1:1 with water.", "My 1:1 with Tariq is on Thursdays."),
    ("My 1:1 with Tariq is on Thursdays.", "Tariq and I have our one-on-one every Thursday."),
    # a measure of a name, but each names another thing of it before its verb
    ("The Harbor builds take 5 minutes.", "The Harbor deploys take 20 minutes."),
    ("Harbor's database has 40 GB.", "Harbor's cache has 95 GB."),
    ("The Transit van has done 120,000 miles.", "The Transit service is due in 5,000 miles."),
    ("The shed was built 20 years ago.", "The shed is about 20 years old."),
    # moving or buying says nothing of an age
    ("User moved to Leeds 3 years ago.", "User is 34 years old."),
    ("The house was bought 3 years ago.", "The house is 90 years old."),
    # "St." that ends a street's name ends its sentence too
    ("We met on Baker St. Then we had lunch at Dishoom.", "Lunch was at Dishoom."),
    # "off" that takes no one off anything
    ("User took the day off work on Friday.", "User works on Fridays."),
    ("The flight took off at 9.", "The flight took off from Gatwick."),
    ("The heating is switched off in May.", "The heating runs from October to April."),
    # one thing shared, another of each one's own
    ("The twins share a bedroom.", "The twins have their own bikes."),
    ("The two teams share a Slack channel.", "Each team has its own Jira board."),
    # something else goes on
    ("Ana left Acme in 2023.", "Ana still lives in Leeds."),
    ("Joe left the choir last spring.", "Joe still plays football on Sundays."),
    # two things one person does on a schedule: the owner and the schedule both give are no subject
    ("User's weekly pottery class is on Monday evenings.", "User's weekly French lesson is on Wednesday evenings."),
    ("User's daily walk is at 7am.", "User's daily swim is at 6pm."),
    ("Ava is in Year 5 at Greenfield Primary.", "Ava's swimming club meets at Oakwood Leisure Centre."),
    ("The hotel is booked for 3 nights.", "The flight was cancelled."),
    ("The dentist appointment is booked for Monday.", "Monday's yoga class was cancelled."),
    ("Max the spaniel is 6 years old.", "Bella the poodle is 3 years old."),
    # a value said to be the only one, and a detail of it, of another thing, or of someone else's thing
    ("Our only office is in Leeds.", "The Leeds office has 40 desks."),
    ("Secrets in the vault: security team only.", "Module registry: run by the platform team."),
    ("Ana's only car is a Tesla.", "Tom's car is a Skoda."),
    ("Luna is fed only Purina kibble.", "Luna's vet is Parkside Vets."),
    ("Omar only reviewed the hiring plan.", "The hiring plan was written by Lena Park."),
    ("The cat Mochi eats wet food only.", "Tofu, the other cat, is on a dry-food diet."),
    ("Cardio is swimming only.", "The neighbour's swimming club meets on Sundays."),
    # a name the cue binds is the only one, not the names beside it ("only Nadia knows how the Tessera ...")
    ("Risk: only Nadia knows how the Tessera export works.", "Nadia reviews every change to the Quill billing code."),
    # a rank said of what a statement is about says which one ("the primary database"), and "primary school" is
    # no rank in a rotation
    ("The primary database is Postgres.", "The secondary database is MySQL."),
    ("Leo's primary school is Oakwood.", "Leo's secondary school will be Hillside."),
    # the memory's own person and a named person holding two roles, or the same one at two times
    ("User runs the Thursday retro.", "Ines runs the Friday demo."),
    ("User owns the billing dashboard.", "Priya reviews changes to the billing dashboard."),
    ("User reports to Priya.", "Tom reports to Priya."),
    ("User is on call this week.", "Felix is on call next week."),
    # a capitalised opener both share, then a thing of its own each: two things of one project
    ("Atlas builds take 5 minutes.", "Atlas deploys take 20 minutes."),
    ("Harbor standups are on Mondays.", "Harbor retros are on Fridays."),
    # measures of two things ("of storage" / "of memory")
    ("Atlas has 40 GB of storage.", "Atlas has 95 GB of memory."),
    # a denied thing of another kind than the other's ("office chair" / "gaming chair")
    ("Tom has a Herman Miller office chair.", "Tom doesn't own a gaming chair."),
    # one role word on both sides, two things held ("Ferrous" / "Orbit")
    ("Priya is the maintainer of Ferrous.", "Jonas maintains Orbit."),
    # denied at one time, said at another: two times, no negation
    ("The office isn't open on Sundays.", "The office is open on Saturdays."),
    ("The pool is not available on weekends.", "The pool is available on weekdays."),
    ("The gym isn't open after 22:00.", "The gym is open until 21:00."),
    ("API port = 8000", "The API listens on port 8000."),
    ("Session timeout = 30 minutes", "Sessions time out after half an hour."),
    ("The coffee machine is on floor three.", "The coffee machine is on floor 3."),
]


# Notes as agents write them in Markdown: a heading, a list item, a task box, a table row, a quote and a paragraph
# are blocks, each a sentence of its own whether or not it ends with a full stop; a line wrapped inside a paragraph
# is not. Their marks are no content ("### Recycling" / "Recycling goes out" read "Recycling" as a name).
MARKDOWN_CONTRADICTIONS = [
    ("## Standup\nThe daily standup is at 9:30 in the small meeting room.", "Standup starts at 10:15 every day."),
    (
        "Household notes\n\n- The boiler service is booked for 12 March\n- Bins go out on Tuesday night",
        "The boiler service is booked for 3 April.",
    ),
    ("### On call\n| week | person |\n|---|---|\n| this week | Ana |", "Ana is not on call this week."),
    ("> Reminder: the VPN is required for the admin panel", "The admin panel doesn't need the VPN."),
    ("**Database**\n\nThe analytics warehouse runs on BigQuery.", "Our analytics warehouse is Snowflake."),
    (
        "Project Heron\n\nHeron's launch date is 2 June.\n\nThe launch was approved by the board.",
        "Heron launches on 16 June.",
    ),
    ("The guest room is free\nfor visitors from Friday\nto Sunday.", "The guest room is booked from Friday to Sunday."),
    ("- [x] Passport renewed, valid until 2034", "The passport expires in 2029."),
    ("## Diet\nMaya is vegetarian.", "Maya is not vegetarian."),
    (
        "Deploy checklist\n\n1. Merge to main\n2. Tag the release\n3. Deploy on Fridays only",
        "We never deploy on Fridays.",
    ),
    ("## Backups\nBackups run nightly at 01:00.", "Backups run at 03:00 every night."),
    ("# Rent\n\nRent is due on the 1st.", "Rent is due on the 5th of the month."),
    ("## Parking\n\nParking at the office is free for staff.", "Staff pay \u00a35 a day for parking at the office."),
    ("### Recycling\nRecycling goes out on Wednesdays", "The recycling is collected on Fridays."),
    ("Dentist\n\nDentist appointment on 14 May at 10:00", "The dentist appointment is on 21 May."),
    ("- [ ] Book flights\n- [x] Visa approved", "The visa application was rejected."),
    ("* Meeting room: Oak\n* Time: 14:00", "The meeting is at 16:00 in Oak."),
    ("| setting | value |\n|---|---|\n| log level | DEBUG |\n| retries | 3 |", "The log level is WARN."),
    ("> The staging database is Postgres 15.", "Staging runs MySQL 8."),
    ("1) Lunch is at 12:30\n2) Coffee at 15:00", "Lunch is at 13:00."),
    # a task box says whether the item is done: ticked against unticked is no restatement
    ("- [x] Book flights", "- [ ] Book flights"),
    ("- [x] Renew the domain", "Renew the domain (pending)"),
    # a ticked item says it happened
    ("- [x] Book flights", "Flights are not booked yet."),
]

MARKDOWN_CONSISTENT = [
    ("## Standup\nThe daily standup is at 9:30.", "Standup is at half past nine every morning."),
    ("# Payroll\n\nSalaries are paid on the 25th.", "Payday is the 25th of each month."),
    (
        "Household notes\n\n- The boiler service is booked for 12 March\n- Bins go out on Tuesday night",
        "The bins are collected on Wednesday morning, so they go out on Tuesday night.",
    ),
    ("### On call\n| week | person |\n|---|---|\n| this week | Ana |", "Ana is on call this week."),
    (
        "The billing service is owned by\nthe payments team and deployed\nevery Thursday.",
        "The payments team owns the billing service.",
    ),
    ("## Contacts\n- Plumber: Dave Hughes\n- Electrician: Sam Ortiz", "Dave Hughes is our plumber."),
    ("## Contacts\n- Plumber: Dave Hughes\n- Electrician: Sam Ortiz", "The dentist is Dr. Amani."),
    ("# Atlas\n\nAtlas staging uses Postgres 15.", "# Orbit\n\nOrbit staging uses MySQL 8."),
    ("## Garden\n- Water the tomatoes daily\n- Feed the roses in May", "## Kitchen\n- Descale the kettle monthly"),
    ("Standup notes\n\nPriya demoed the new export.\nTom is blocked on the API keys.", "The export job runs at 02:00."),
    (
        "Deploy checklist\n\n1. Merge to main\n2. Tag the release\n3. Run the smoke tests",
        "Smoke tests run after each release is tagged.",
    ),
    ("## Backups\nBackups run nightly at 01:00.", "Backups happen every night at 1 am."),
    ("# Rent\n\nRent is due on the 1st.", "The rent has to be paid on the first of each month."),
    ("- [x] Visa approved", "The visa was approved."),
    ("| setting | value |\n|---|---|\n| log level | DEBUG |", "Logging is set to DEBUG."),
    ("* Meeting room: Oak\n* Time: 14:00", "We meet in Oak at 14:00."),
    ("## Backups\nBackups run nightly at 01:00.", "## Deploys\nDeploys run on Tuesdays at 10:00."),
    ("- [x] Visa approved", "- [ ] Passport renewal"),
    ("# Atlas\nAtlas staging uses Postgres 15.", "Orbit staging uses MySQL 8."),
    # a ticked item and a statement that it happened
    ("- [x] Renew passport", "The passport was renewed in March."),
    ("- [ ] Renew passport\n- [x] Book hotel", "The hotel is booked."),
    # an unticked item is a task, which a not-yet agrees with
    ("- [ ] Book flights", "Flights are not booked yet."),
]


def _relate(pair: tuple[str, ...]):
    """A pair is (old, new) or, with the titles agents give, (old, new, old title, new title)."""
    old, new, *titles = pair
    old_title, new_title = titles or ("", "")
    return relate(Statement(old, old_title), Statement(new, new_title))


@pytest.mark.parametrize("pair", CONTRADICTIONS + MARKDOWN_CONTRADICTIONS)
def test_two_answers_to_one_question_conflict(pair):
    r = _relate(pair)
    assert r.is_conflict, r


@pytest.mark.parametrize("pair", CONSISTENT + MARKDOWN_CONSISTENT)
def test_the_same_fact_said_two_ways_is_no_conflict(pair):
    r = _relate(pair)
    assert not r.is_conflict, r


# A number a code's noun labels is which code, not an amount: no drift makes two of them one.
CODES = [
    ("The door code is 4471.", "The door code is 4417."),
    ("The wifi passcode is 8831.", "Wifi passcode: 8813."),
    ("The API port is 8080.", "API port: 8000."),
    # the label's noun is the head of the phrase before "is", whatever it is of
    ("The gate code is 1234.", "The code for the gate is 1243."),
]


@pytest.mark.parametrize("pair", CODES)
def test_two_codes_are_two_answers_not_a_drift(pair):
    r = _relate(pair)
    assert (r.kind, r.conflict_type) == ("conflict", "mutually_exclusive"), r


# A number right after a noun that follows "the" or a preposition says which one of it, whatever word comes next:
# two of them are two subjects, not one amount that drifted ("for service 1 starts" read "1 starts" as a count).
WHICH_ONE = [
    ("The release freeze for service 1 starts on Monday.", "The release freeze for service 2 starts on Monday."),
    ("The build 14 failed on the linux runner.", "The build 15 failed on the linux runner."),
    ("During sprint 12 Maya pairs with Tom.", "During sprint 13 Maya pairs with Tom."),
    # a label noun opening its sentence, or "number" before the number, says which one too; and a negation says
    # nothing of which one it is said of
    ("Case 5512 about the refund was closed.", "Case 5513 about the refund was not closed."),
    ("Order 88 from Brightline was paid by card.", "Order 91 from Brightline was not paid by card."),
    ("Runner number 2 builds every night.", "Runner number 7 builds every night."),
]

# The same labelled one, said and denied, is a contradiction.
SAME_LABEL_DENIED = [
    ("Case 5512 about the refund was closed.", "Case 5512 about the refund was not closed."),
    ("Rack number 4 holds the backup servers.", "Rack number 4 no longer holds the backup servers."),
]


@pytest.mark.parametrize("pair", SAME_LABEL_DENIED)
def test_the_same_labelled_one_said_and_denied_conflicts(pair):
    r = _relate(pair)
    assert r.is_conflict, r


# A number after a word that counts, or after a verb, is still how many.
STILL_COUNTS = [
    ("The nightly job keeps the last 3 backups.", "The nightly job keeps the last 10 backups."),
    ("The report lists the top 10 customers by revenue.", "The report lists the top 25 customers by revenue."),
    ("The MVP needs to support 50 concurrent users.", "The MVP needs to support 500 concurrent users."),
    ("We are hiring for another 2 engineers.", "We are hiring for another 6 engineers."),
]


@pytest.mark.parametrize("pair", WHICH_ONE)
def test_a_number_after_a_noun_says_which_one(pair):
    r = _relate(pair)
    assert r.kind == "unrelated", r


@pytest.mark.parametrize("pair", STILL_COUNTS)
def test_a_number_after_a_counting_word_or_a_verb_still_counts(pair):
    r = _relate(pair)
    assert (r.kind, r.conflict_type) == ("conflict", "quantitative_drift"), r


def test_a_code_said_again_with_a_detail_is_no_conflict():
    r = _relate(("The door code is 4471.", "Door code: 4471, and the alarm is set at night."))
    assert not r.is_conflict, r


# One price in two currencies, with no rate between them, may be two prices: a `possible` conflict, never a merge
# nor "adds detail". A side that gives both currencies says how they meet.
def test_one_price_in_two_currencies_is_a_possible_conflict():
    for pair in (
        ("The Netflix plan costs $40 a month.", "The Netflix plan costs €40 a month."),
        ("User's rent is £1,450 a month.", "User's rent is €1,700 a month."),
    ):
        r = _relate(pair)
        assert r.kind == "possible" and r.conflict_type == "quantitative_drift", (pair, r)


def test_a_price_given_in_both_currencies_agrees_with_either():
    r = _relate(("The Netflix plan costs $40 a month.", "The Netflix plan costs $40 (about €37) a month."))
    assert not r.is_conflict, r


# A source a statement names for itself is not what it is about: two statements that name one source and say
# different things of different subjects are unrelated (they shared "Alice" as their subject and conflicted), and a
# contradiction said with a source still is one.
SAME_SOURCE_OTHER_SUBJECT = [
    (
        "According to Alice, the deploy window for billing is 2 hours.",
        "According to Alice, the code freeze for search lasts 3 days.",
    ),
    ("Per the runbook, the backup job keeps 30 snapshots.", "Per the runbook, the log shipper keeps 7 files."),
    ("The staging cluster has 12 nodes, per the infra team.", "The analytics team has 5 analysts, per the infra team."),
]
SOURCED_CONTRADICTIONS = [
    ("The backup job keeps 30 snapshots.", "Per the runbook, the backup job keeps 7 snapshots."),
    ("The boiler was serviced in March.", "According to the landlord, the boiler was serviced in June."),
]


@pytest.mark.parametrize("pair", SAME_SOURCE_OTHER_SUBJECT, ids=lambda p: p[0][:40])
def test_a_source_named_on_both_sides_is_not_a_shared_subject(pair):
    rel = relate(Statement(pair[0]), Statement(pair[1]))
    assert not rel.is_conflict, rel


@pytest.mark.parametrize("pair", SOURCED_CONTRADICTIONS, ids=lambda p: p[1][:40])
def test_a_contradiction_said_with_its_source_still_conflicts(pair):
    rel = relate(Statement(pair[0]), Statement(pair[1]))
    assert rel.is_conflict, rel


# What follows a label that opens its line ("Hotel: Arlo SoHo", "- Outbound: 12 June, 07:15 from Gatwick") is the
# label's value: a name there is a value as a name after "is" is, not a second subject. Agents write notes as such
# lists; two labels that are different things stay unrelated.
LABELLED_CONTRADICTIONS = [
    ("Hotel: Arlo SoHo", "The hotel for the offsite is the Moxy Chelsea."),
    ("Venue: Birch Room", "Venue: Oak Room"),
    ("- Outbound flight: 12 June, 07:15 from Gatwick", "The 12 June flight leaves from Stansted at 7:15am."),
    ("Accountant: Dana Whitfield", "The user's accountant is Omar Haddad."),
]
LABELLED_OTHERS = [
    ("Hotel: Arlo SoHo", "Restaurant: Nobu Downtown"),
    ("Dentist: Dr. Fell at Smile Studio.", "Doctor: Dr. Patel at Riverside Clinic."),
    ("- Outbound: 12 June from Gatwick", "- Return: 16 June from Lisbon"),
    ("Owner: Priya Natarajan", "Reviewer: Marcus Chen"),
    # a label that opens a sentence: the name after it is that sentence's subject
    (
        "Decided: Harbor authenticates users through the company OIDC provider.",
        "Decided: Tessera authenticates users through the company OIDC provider.",
    ),
    (
        "Decided: Wren uses a Redis stream for background jobs.",
        "Decided: Lumen uses a Redis stream for background jobs.",
    ),
]


@pytest.mark.parametrize("pair", LABELLED_CONTRADICTIONS, ids=lambda p: p[0][:30])
def test_a_name_after_a_label_is_its_value(pair):
    rel = relate(Statement(pair[0]), Statement(pair[1]))
    assert rel.is_conflict, rel


@pytest.mark.parametrize("pair", LABELLED_OTHERS, ids=lambda p: p[0][:30])
def test_two_labels_with_their_values_are_two_things(pair):
    rel = relate(Statement(pair[0]), Statement(pair[1]))
    assert not rel.is_conflict, rel


def test_a_flight_that_leaves_from_another_airport_is_another_answer():
    rel = relate(
        Statement("The flight to Oslo leaves from Gatwick."), Statement("The flight to Oslo leaves from Luton.")
    )
    assert rel.is_conflict, rel


@pytest.mark.parametrize(
    "pair",
    [
        ("The parser reads the first line of each file.", "The parser never reads the first line of each file."),
        ("The office opens on public holidays.", "The office doesn't open on public holidays."),
        ("Guests can bring pets to the cabin.", "Guests cannot bring pets to the cabin."),
    ],
    ids=lambda p: p[1][:30],
)
def test_a_negation_is_explained_in_the_statements_words(pair):
    # the reason read "negates: lin, read": the stems the detector compares, not words a person wrote
    rel = relate(Statement(pair[0]), Statement(pair[1]))
    assert rel.is_conflict, rel
    said = set(re.findall(r"[\w']+", (pair[0] + " " + pair[1]).lower()))
    shown = set(re.findall(r"[\w']+", rel.reason.split(":", 1)[1].lower()))
    assert shown and shown <= said, rel.reason


# One frame, a value said of two things: two facts of one kind, not two answers to one question. The same thing
# with another value still conflicts.
ONE_FRAME_TWO_THINGS = [
    ("We deploy the frontend on Fridays.", "We deploy the backend on Mondays."),
    ("The kitchen lights switch off at 22:00.", "The garden lights switch off at 23:30."),
    ("Maria waters the tomatoes every Tuesday.", "Maria waters the roses every Thursday."),
    ("The API gateway times out after 30 seconds.", "The database client times out after 5 seconds."),
]
ONE_FRAME_ONE_THING = [
    ("We deploy the frontend on Fridays.", "We deploy the frontend every Monday."),
    ("The kitchen lights switch off at 22:00.", "The kitchen lights switch off at 23:30."),
    ("Maria waters the tomatoes every Tuesday.", "Maria waters the tomatoes every Thursday."),
]


# An acronym in one statement and the words it stands for in the other are one thing said two ways: a role, a
# kind of leave, a way of working. An acronym the vocabulary spells out stands for those words only, and a
# capital unit after a number ("5 PM") is no acronym.
ACRONYM_SPELLED_OUT = [
    (
        "## Infra team\n- EM: Noor Hassan\n- Help channel: #infra-help",
        "Yusuf Kaya is the engineering manager of the infra team.",
    ),
    ("User has 25 days of PTO a year.", "User gets 30 days of paid time off each year."),
    ("WFH days are Monday and Friday.", "Working from home is allowed on Tuesdays and Thursdays."),
    ("SRE on-call: Priya.", "The site reliability engineering on-call this week is Marcus."),
    # the acronym in the newer statement
    ("Paid time off is 25 days a year.", "User gets 30 days of PTO each year."),
]
ACRONYM_OF_OTHER_WORDS = [
    ("QA signs off releases on Tuesdays.", "Quarterly audits happen on Thursdays."),
    ("The PR queue is reviewed at 10:00.", "Press releases go out at 14:00."),
]


def test_a_capital_unit_after_a_number_is_no_acronym():
    rel = relate(Statement("Standup is at 5 PM."), Statement("The product manager runs standup at 4 pm."))
    assert rel.is_conflict and "5 PM" in rel.reason, rel


# A verb denied of one object and said of another is two objects, not a yes and a no; denied of the object the
# other names, or with no object, it still conflicts.
VERB_OF_ANOTHER_OBJECT = [
    ("The user doesn't eat pork.", "User eats chicken and fish."),
    ("User doesn't speak French.", "The user speaks fluent Spanish."),
    ("Contractors can't access payroll.", "Contractors can access the finance dashboard."),
    ("The Vega service doesn't call the billing API.", "The Vega service calls the search API every minute."),
    # a denied span in a frame both share is no answer to the other's span there
    ("Leo isn't allergic to dogs.", "Leo is allergic to cats."),
    ("The kitchen has no microwave.", "The kitchen has a dishwasher."),
    # a noun denied at one place is said nothing of at another
    ("There is no parking at the dentist.", "The office has parking for staff."),
    ("No smoking on the balcony.", "Smoking is allowed in the garden."),
]
VERB_OF_THE_SAME_OBJECT = [
    ("We don't use feature flags.", "The team uses feature flags for every release."),
    ("User doesn't drink coffee.", "User drinks coffee every morning."),
    ("Jonas never drinks.", "Jonas drinks wine at dinner."),
    ("The app doesn't support dark mode.", "The app supports a dark theme."),
    ("No smoking on the balcony.", "Smoking is allowed on the balcony."),
    ("There is no staff parking at the office.", "The office has parking for staff."),
    # (a value after the preposition says when: the place test leaves it out)
    ("User is on metformin.", "The doctor took the user off metformin in March."),
]


@pytest.mark.parametrize("pair", VERB_OF_ANOTHER_OBJECT, ids=lambda p: p[1][:30])
def test_a_verb_denied_of_another_object_is_no_conflict(pair):
    for a, b in (pair, pair[::-1]):
        rel = relate(Statement(a), Statement(b))
        assert not rel.is_conflict, (a, b, rel)


@pytest.mark.parametrize("pair", VERB_OF_THE_SAME_OBJECT, ids=lambda p: p[1][:30])
def test_a_verb_denied_of_the_same_object_conflicts(pair):
    for a, b in (pair, pair[::-1]):
        rel = relate(Statement(a), Statement(b))
        assert rel.is_conflict, (a, b, rel)


def test_a_name_said_with_a_naming_verb_is_the_same_attribute():
    # "is called" says the name, as "the name is" does; another animal's name is another thing
    rel = relate(Statement("The cat's name is Mochi."), Statement("The user's cat is called Biscuit."))
    assert rel.is_conflict and "Mochi" in rel.reason, rel
    assert not relate(Statement("The cat's name is Mochi."), Statement("The dog is called Biscuit.")).is_conflict


@pytest.mark.parametrize(
    "pair",
    [
        ("The user's dentist is Dr. Alvarez.", "The user's plumber is Dr. Kim."),
        ("The user's dentist is Dr. Alvarez.", "The user's optician is Dr. Kim."),
    ],
    ids=lambda p: p[1][:30],
)
def test_the_owner_alone_is_no_shared_subject(pair):
    rel = relate(Statement(pair[0]), Statement(pair[1]))
    assert not rel.is_conflict, rel


def test_the_owner_and_what_is_claimed_of_them_is_one_subject():
    rel = relate(
        Statement("User lives in a two-bedroom apartment in Oakland."),
        Statement("The user recently moved out of the Bay Area and now lives in a house in Sacramento."),
    )
    assert rel.is_conflict, rel


# A member of a class that counts only beside its head word ("primary" beside "on-call", "Plus" beside "plan"),
# named bare where the other statement gives it with its head, is that class's member: two answers.
HEAD_GIVEN_BY_THE_OTHER = [
    ("Dana is the primary on-call this week.", "Dana is secondary this week; Omar covers the pager."),
    ("Our Dropbox plan: Business.", "The team is on Dropbox Plus."),
]


def test_a_state_and_the_denied_noun_of_its_root_are_what_two_long_statements_share():
    # "allergic" / "allergies": the claim's root is the subject, however much else each sentence says
    rel = relate(
        Statement("Priya is allergic to shellfish, so never book seafood restaurants for team dinners."),
        Statement("Priya has no food allergies and orders prawns every time."),
    )
    assert rel.is_conflict and "allerg" in rel.reason, rel
    other = relate(
        Statement("Biscuit the dog is allergic to chicken."),
        Statement("Priya has no food allergies and orders prawns every time."),
    )
    assert not other.is_conflict, other


# Who provides a service and where they are are one answer said in two parts ("Dr. Ames at Elm Dental"): both
# parts differing is one difference, not another subject.
def test_a_person_and_the_place_they_are_at_are_one_value():
    rel = relate(
        Statement("The kids' orthodontist is Dr. Ames at Elm Dental."),
        Statement("The kids' orthodontist is Dr. Rossi at Bayview Orthodontics."),
    )
    assert rel.is_conflict and "Ames" in rel.reason and "Rossi" in rel.reason, rel


# A name after the word that follows "now" (or "still", "currently") is that verb's object, where a value goes.
NAME_AFTER_A_VERB = [
    ("User's physio is Dr. Hale.", "User changed physios in May and now sees Dr. Brandt."),
    ("Mia's piano teacher is Mrs. Lowe.", "Mia changed piano teachers and now sees Mr. Dunn on Saturdays."),
]


# "changed GPs", "switched vets": the plural of a noun the other statement is about, after a change verb, says the
# very thing it is about was changed for another of its kind.
CHANGED_KIND = [
    ("Physio: Dr. Hale at Core Clinic.", "User changed physios and is now registered at Stretch Studio."),
    ("Barber: Sam at Fade Lab.", "User switched barbers last month; now goes to Clip Joint."),
    ("User's GP is Dr. Moss.", "User changed GPs in June; now sees Dr. Varga."),
]


def test_the_plural_of_an_acronym_reads_as_the_acronym():
    from memkeeper.core.slots.analysis import analyze

    stems = {t.text: t.stem for t in analyze("Both GPs and the TVs were checked.").tokens}
    single = {t.text: t.stem for t in analyze("The GP checked the TV.").tokens}
    assert stems["GPs"] == single["GP"] and stems["TVs"] == single["TV"], (stems, single)


def test_a_street_in_a_name_is_part_of_the_name():
    from memkeeper.core.slots.analysis import analyze

    assert "Elm Street Surgery" in [n.text for n in analyze("The GP is at Elm Street Surgery.").names]
    assert "Harbour Road" in [n.text for n in analyze("User lives on Harbour Road.").names]


# A provider named with where they work: the place is part of the answer, the person pairs with the person.
PROVIDER_AND_PLACE = [
    ("User's vet is Dr. Okoye at Riverside Vets.", "User's vet is Dr. Hart."),
    ("User's dentist, Dr. Alvarez, works at Elm Surgery.", "User's dentist is Dr. Kim at Harbour Practice."),
    ("Dr. Alvarez at Elm Surgery is User's dentist.", "Dentist: Dr. Kim (Harbour Practice)"),
]
# ... and the same shapes said of two people, two kinds of provider, or two meetings
PROVIDER_AND_PLACE_APART = [
    ("User met Dr. Alvarez at Elm Surgery last week.", "User met Dr. Kim at Harbour Practice yesterday."),
    ("User's dentist is at Elm Surgery.", "User's sister Kate's dentist is at Harbour Practice."),
    ("Dr. Alvarez at Elm Surgery is User's vet.", "Dr. Kim at Harbour Practice is User's sister Kate's vet."),
    (
        "User changed vets and is now with Dr. Alvarez at Elm Surgery.",
        "User changed dentists and is now with Dr. Kim at Harbour Practice.",
    ),
    ("User's GP is at Elm Surgery.", "User's sister Kate changed GPs and is now with Dr. Kim at Harbour Practice."),
]


def test_the_word_after_a_subject_pronoun_is_a_verb_not_a_qualifier():
    from memkeeper.core.slots.analysis import analyze

    assert "log" not in analyze("We log invoices in FreeAgent.").modifiers.get("invoic", frozenset())
    rel = relate(
        Statement("Xero is where the finance team tracks invoices."), Statement("We log invoices in FreeAgent.")
    )
    assert rel.is_conflict, rel


def test_the_owner_alone_in_common_and_one_word_put_for_another_is_a_possible_conflict():
    # as "Sam prefers tea" / "Sam prefers coffee" is; with anything else said differently, two things of theirs
    rel = relate(Statement("User prefers green tea."), Statement("User prefers black coffee."))
    assert rel.kind == "possible", rel
    other = relate(Statement("User prefers green tea."), Statement("User prefers black coffee with dessert."))
    assert not other.is_conflict, other


def test_the_memorys_own_person_is_no_name_a_relatives_name_defers_to():
    # "User's" names the memory's own person, not someone the other statement's "Pepper's sister Luna" is compared
    # with: Luna is Pepper's sister, another animal
    rel = relate(Statement("User's cat Pepper is a tabby."), Statement("Pepper's sister Luna is a Siamese."))
    assert not rel.is_conflict, rel


# The readings above, by what each says: pairs each reading makes one answer given twice (a conflict), and pairs
# of the same shapes it keeps two things (no conflict).
ONE_ANSWER = {
    "one frame, one thing": ONE_FRAME_ONE_THING,
    "an acronym spelled out": ACRONYM_SPELLED_OUT,
    "the head the other gives": HEAD_GIVEN_BY_THE_OTHER,
    "a name after now and a verb": NAME_AFTER_A_VERB,
    "a change of the kind": CHANGED_KIND,
    "a provider and where they work": PROVIDER_AND_PLACE,
}
TWO_THINGS = {
    "one frame, two things": ONE_FRAME_TWO_THINGS,
    "an acronym of other words": ACRONYM_OF_OTHER_WORDS,
    "a bare member of another subject": [
        ("Direct pushes to main are blocked; changes go through PRs.", "The default branch is master.")
    ],
    "another person's verb and name": [
        ("User's physio is Dr. Hale.", "User's brother changed physios and now sees Dr. Brandt.")
    ],
    "someone else's change": [("User's bank is Barclays.", "User's parents switched banks to Monzo.")],
    "providers of two people, kinds or meetings": PROVIDER_AND_PLACE_APART,
}


def _cases(groups: dict[str, list[tuple[str, str]]]) -> list:
    return [pytest.param(pair, id=f"{name}: {pair[1][:30]}") for name, pairs in groups.items() for pair in pairs]


@pytest.mark.parametrize("pair", _cases(ONE_ANSWER))
def test_one_answer_given_twice_conflicts(pair):
    rel = relate(Statement(pair[0]), Statement(pair[1]))
    assert rel.is_conflict, rel


@pytest.mark.parametrize("pair", _cases(TWO_THINGS))
def test_two_things_of_one_shape_do_not_conflict(pair):
    rel = relate(Statement(pair[0]), Statement(pair[1]))
    assert not rel.is_conflict, rel
