"""Classes of credential read since the second set of agent notes (docs/decisions.md, 2026-12-05, "Secret
detection: the second set of agent notes"). Every sentence here is written for the test, none copied from a set."""

from __future__ import annotations

import pytest

from memkeeper.core.secrets import find_secrets, redact_secrets, scan


def _found(text: str) -> list[tuple[str, str]]:
    return [(text[f.start : f.end], f.secret_class) for f in scan(text)]


def _redacts(text: str, secret: str) -> None:
    redacted, classes = redact_secrets(text)
    assert secret not in redacted and classes, redacted


@pytest.mark.parametrize(
    "text, secret",
    [
        # A name of a password, what it is for, then a sign: a colon, an arrow, a dash.
        ("Password for the garage NAS: Crate7-Lumen", "Crate7-Lumen"),
        ("password for the print server → Vq3!orbit", "Vq3!orbit"),
        ("Passphrase (offline backup drive) -> Tundra88Fjord", "Tundra88Fjord"),
        # ... in other languages, and with their "is".
        ("Kennwort für den Router im Keller: Wolke!Stern7", "Wolke!Stern7"),
        ("Das Passwort für das WLAN lautet Himbeer-42-Zaun", "Himbeer-42-Zaun"),
        ("Le mot de passe de la box est Marée9Bleue", "Marée9Bleue"),
        ("la contraseña del portátil es Tortuga#318", "Tortuga#318"),
        # A slip of typing in the name.
        ("pasword for the HR portal: Fennel4Quartz", "Fennel4Quartz"),
        ("the passowrd is Gable%29nook", "Gable%29nook"),
    ],
)
def test_a_password_named_in_prose_with_what_it_is_for(text, secret):
    assert _found(text) == [(secret, "password_assignment")]
    _redacts(text, secret)


# Near misses: prose about a password, in the same words (each test of a class below ends with its near misses,
# so that every test fails on the detector before these classes).
PROSE_ABOUT_A_PASSWORD = [
    "The password argon2id hash is kept in the users table.",
    "password field is required on the sign-up form",
    "The password for the staging box: ask Priya, it lives in the vault.",
    "Password for the router → see the sticker underneath.",
    "Das Passwort ist geheim.",
    "Le mot de passe est dans le coffre.",
    "password hashing uses bcrypt with cost 12",
    "the password changes quarterly2 times a year? no: quarterly.",
]


@pytest.mark.parametrize(
    "text, secret",
    [
        # Only a space after the name, as in a list of what to type.
        ("Laptop for the treasurer: user kasse, Passwort Laterne88!", "Laterne88!"),
        ("Cabin network: SSID PineHollow, password cedarwood42", "cedarwood42"),
        ("machine git.example.net login ci-runner password Rk2vLm9QxT4s", "Rk2vLm9QxT4s"),
    ],
)
def test_a_password_after_its_name_and_a_space(text, secret):
    assert secret in [s for s, _ in _found(text)]
    _redacts(text, secret)
    assert [t for t in PROSE_ABOUT_A_PASSWORD if find_secrets(t)] == []


def test_a_password_spelled_out_with_spaces():
    text = 'the pw for the shed lock app is "m a p l e s y r u p 8 1" without the gaps'
    assert find_secrets(text) == ["password_assignment"]
    _redacts(text, "m a p l e")
    assert find_secrets("the password is a b c d e f, as in the alphabet") == []


@pytest.mark.parametrize(
    "text, secret",
    [
        ("her bank login is d.okafor77@example.net / Marigold#19", "Marigold#19"),
        ("credentials: ops-admin / Quill7Harbor", "Quill7Harbor"),
    ],
)
def test_a_login_given_as_user_and_password(text, secret):
    assert (secret, "password_assignment") in _found(text)
    _redacts(text, secret)
    for near in ("login is via SSO / Okta", "credentials: see vault / ask ops", "login: admin / admin (the default)"):
        assert find_secrets(near) == [], near


@pytest.mark.parametrize(
    "text, secret",
    [
        (
            "Mapping service API token for the tile cache (read only): Zk4pQ9wLx2Rm7Tn3Vb8Yc1Hd",
            "Zk4pQ9wLx2Rm7Tn3Vb8Yc1Hd",
        ),
        ("access token for the kiosk integration → Tq8mW3xP0vL6rZ2nK9sB4yH7", "Tq8mW3xP0vL6rZ2nK9sB4yH7"),
        ("WPA2 key for the workshop (guests ok): Rivet-Otter-58", "Rivet-Otter-58"),
        ("The wireless key is Amber9Falcon_Ridge", "Amber9Falcon_Ridge"),
        ("licence key for the audio editor: QX7R-2M9K-LP4T-8WZN", "QX7R-2M9K-LP4T-8WZN"),
    ],
)
def test_a_token_or_a_key_named_with_what_it_is_for(text, secret):
    assert _found(text) == [(secret, "secret_assignment")]
    _redacts(text, secret)
    assert [t for t in KEYS_NAMED_WITHOUT_A_VALUE if find_secrets(t)] == []


@pytest.mark.parametrize(
    "text, secret",
    [
        ("the wifi key is sunflower42", "sunflower42"),
        ("WPA2 key: homenet2024", "homenet2024"),
        ("The network key for the guest network is marigold88.", "marigold88"),
    ],
)
def test_a_wireless_networks_key_is_read_as_a_password(text, secret):
    """A network's key is a passphrase, and people pick them as they pick passwords: "the wifi key is sunflower42"
    was kept whole where "the wifi password is sunflower42" was refused (a key's value had to mix cases or hold a
    symbol). How the network is secured is not its key."""
    assert _found(text) == [(secret, "secret_assignment")]
    _redacts(text, secret)
    for near in (
        "The network key is WPA2-PSK",
        "wifi key type: WPA3-SAE",
        "the wifi key is stored in the vault",
        "WPA2 key length is 256 bits",
        "the PSK is rotated every quarter",
        "the product key is abcd1234efgh",  # not a network's: a licence key's value still has to mix cases
    ):
        assert find_secrets(near) == [], near


KEYS_NAMED_WITHOUT_A_VALUE = [
    "API key for the maps widget (public, restricted by referrer): see config",
    "Token for the runner: projects/acme-prod/secrets/runner-token/versions/12",
    "Public key for the deploy user: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG4kQ9v7ExampleKeyMaterial9x",
    "The encryption key for backups: AES-256-GCM, rotated yearly.",
    "The API key id for reports: 7f3c2a91-4b8e-4d2a-9c61-0e5b8d2f1a34",
    "The network key is printed on the router label.",
    "wifi key: ask at the front desk",
]


@pytest.mark.parametrize(
    "text, secret",
    [
        ("<server><id>repo</id><password>Hx83kLq0Pz</password></server>", "Hx83kLq0Pz"),
        ("<apiToken>f9K2mQ7xL4vR8nT1</apiToken>", "f9K2mQ7xL4vR8nT1"),
        ('<add key="MailerPassword" value="Sprocket!714" />', "Sprocket!714"),
    ],
)
def test_xml_elements_and_attributes(text, secret):
    assert secret in [s for s, _ in _found(text)]
    _redacts(text, secret)
    for near in (
        "<passwordPolicy>strict</passwordPolicy>",
        "<token>${API_TOKEN}</token>",
        '<add key="Theme" value="x9"/>',
    ):
        assert find_secrets(near) == [], near


@pytest.mark.parametrize(
    "text, secret",
    [
        ('{"host": "mail.example.org", "user": "alerts", "pass": "Brook7!stone"}', "Brook7!stone"),
        ("SMTP_PASS=Willow42Crane", "Willow42Crane"),
        ("smtp.pass: Kettle9&Moss", "Kettle9&Moss"),
    ],
)
def test_pass_as_a_key(text, secret):
    assert _found(text) == [(secret, "password_assignment")]
    for near in ("boarding pass: BA2490", '"pass": "through"', "first pass: rough cut v2"):
        assert find_secrets(near) == [], near


def test_pgpass_line_and_docker_auth():
    assert _found("db.internal:5432:ledger:ledger_rw:Tp7wq2Xz")[0][0] == "Tp7wq2Xz"
    assert find_secrets("localhost:5432:app:app_user:*") == []
    auth = '{"auths": {"registry.example.io": {"auth": "Ym90OmNvcHBlci1GaXNoLTcy"}}}'  # bot:copper-Fish-72
    assert find_secrets(auth) == ["basic_auth_header"]
    assert find_secrets('"auth": "none"') == []


@pytest.mark.parametrize(
    "text, secret",
    [
        ("curl -s -u reporter:Lq8vX2mN https://metrics.example.org/api", "Lq8vX2mN"),
        ("http -a admin:Wx4tR9pK PUT http://10.0.0.2/api/config", "Wx4tR9pK"),
        ("curl --user mirror:Hb6zQ1cF -O https://files.example.org/a.iso", "Hb6zQ1cF"),
        ('$pw = ConvertTo-SecureString "Granite!52x" -AsPlainText -Force', "Granite!52x"),
    ],
)
def test_http_clients_and_powershell(text, secret):
    assert (secret, "password_assignment") in _found(text)
    _redacts(text, secret)
    for near in ('curl -u "$USER:$TOKEN" https://api.example.com', "curl -u admin: https://api.example.com"):
        assert find_secrets(near) == [], near


def test_a_secret_in_a_urls_query():
    text = "Build trigger: https://ci.example.dev/trigger/job-41?key=Qm_rT_zXwPvL&branch=main"
    assert _found(text) == [("Qm_rT_zXwPvL", "url_token")]
    assert find_secrets("https://api.example.org/v2/deploy?auth=Zr8kT2mWq5Lx") == ["url_token"]
    for benign in (
        "Checkout URL: https://shop.example/cart?key=summer-sale-2024",
        "https://cdn.example.com/img?key=uploads/2024/photo.jpg",
        "https://docs.example.com/search?key=YOUR_API_KEY",
    ):
        assert find_secrets(benign) == []


def test_session_cookies_by_their_own_names():
    text = "forum_session=9f2c4e1a7b3d5f608c2e4a6b8d0f1e3a; path=/; secure"
    assert _found(text) == [("9f2c4e1a7b3d5f608c2e4a6b8d0f1e3a", "session_cookie")]
    text = "Set-Cookie: remember_me=Xk2Lm9Pq4Rs7Tv0Wy3Za6Bc8; Path=/; Secure; HttpOnly"
    assert find_secrets(text) == ["session_cookie"]
    assert find_secrets("_ga=GA1.2.1234567890.1234567890; Path=/; Domain=.example.com") == []


def test_a_seed_phrase_one_word_a_line():
    words = "ocean river candle mango violin copper tiger salad orbit pencil harbor velvet".split()
    text = "Hardware wallet seed phrase:\n" + "\n".join(f"{i}) {w}" for i, w in enumerate(words, 1))
    assert find_secrets(text) == ["seed_phrase"]
    redacted, _ = redact_secrets(text)
    assert not any(w in redacted for w in words)


def test_licence_blocks_and_product_keys():
    block = "----- BEGIN LICENSE -----\nJane Roe\nSite License\n4F7A 99C2 1B3E D04A\nA7C1 0E55 9B2D 6F48\n----- END LICENSE -----"
    assert _found("Editor licence:\n" + block)[0] == (block, "license_key")
    assert find_secrets("Office product key: 7KQ2M-XR4TP-9WB3N-C6YHV-2JD8F") in (["license_key"], ["secret_assignment"])
    assert find_secrets("Activation 7KQ2M-XR4TP-9WB3N-C6YHV-2JD8F") == ["license_key"]
    assert find_secrets("Order 5KJ2P-7QW3R-ZX8M4-N6T2Y-B9C1D shipped (tracking key pending).") == []


def test_square_access_tokens():
    token = "EAAA" + "lQ7vX2kP9mR4tZ8wN1bC5yH3dF6gJ0sL-aE_uI7oK2qW9rT4"
    assert find_secrets(f"POS token {token}") == ["square_token"]


def test_totp_seeds_in_prose():
    assert find_secrets("TOTP seed for the ops account: JBQW 4ZLE MRSX G5DT") == ["totp_seed"]
    assert find_secrets("the authenticator secret is kept in the app on my phone") == []


def test_a_code_digit_by_digit_and_its_owner_a_clause_before():
    assert find_secrets("alarm code 2-7-4-9 at the back door") == ["pin_code"]
    assert find_secrets("the lockbox under the porch, code 3815.") == ["pin_code"]
    assert find_secrets("the alarm panel, code 4040 error means low battery") == []
    assert find_secrets("the door code is 4471") == []


def test_a_bare_value_keeps_its_ampersand():
    text = "  password: Lantern&Reef-30"
    assert _found(text) == [("Lantern&Reef-30", "password_assignment")]


@pytest.mark.parametrize(
    "text",
    [
        "STRIPE_SECRET_KEY=sk_test_xxxxxxxxxxxxxxxxxxxxxxxx",
        "GITHUB_TOKEN=ghp_000000000000000000000000000000000000",
        "export AWS_ACCESS_KEY_ID=AKIAXXXXXXXXXXXXXXXX",
    ],
)
def test_a_placeholder_in_a_tokens_format_is_not_one(text):
    assert find_secrets(text) == []
