//! Host names read in every spelling, and which pass for another.

use super::*;

fn read(host: &str) -> Name {
    name(host)
}

#[test]
fn every_spelling_of_a_host_reads_as_one() {
    let cyrillic = "g\u{456}thub.com";
    for spelling in [
        "g\u{456}thub.com",
        "G\u{406}THUB.COM",
        "xn--gthub-n2e.com",
        "XN--GTHUB-N2E.COM",
        "Xn--gthub-n2e.com.",
        "g%D1%96thub.com",
        "g%d1%96thub.com.",
        "g\u{456}thub\u{3002}com",
    ] {
        let name = read(spelling);
        assert_eq!(name.text, cyrillic, "{spelling}");
        assert!(!name.unreadable, "{spelling}");
    }
    assert_eq!(read("xn--mnchen-3ya.de").text, "m\u{fc}nchen.de");
    assert_eq!(read("GitHub.com.").text, "github.com");
    assert_eq!(read("api.github.com").text, "api.github.com");
    assert_eq!(read("[::1]").text, "[::1]");
}

#[test]
fn what_cannot_be_read_is_marked() {
    for host in [
        "xn--github-.com",
        "xn--zz9zz9.com",
        "xn--gthub-n2e%ZZ.com",
        "g%ffthub.com",
        &format!("xn--{}.com", "a".repeat(80)),
    ] {
        assert!(read(host).unreadable, "{host}");
        assert!(passes_for_another(&read(host)), "{host}");
    }
}

#[test]
fn lookalikes_and_honest_names() {
    let lookalike = [
        "g\u{456}thub.com",
        "xn--github-9ab.com",
        "xn--gthub-n4a.com",
        "g\u{ed}thub.com",
        "\u{456}nstall.example-cl\u{456}.dev",
        "deb.n\u{43e}desource.com",
        "\u{430}\u{440}\u{440}\u{4cf}\u{435}.com",
        "git\u{200b}hub.com",
        "git\u{ad}hub.com",
        "p\u{3b1}ypal.com",
        "ru\u{455}tup.rs",
        "\u{1d5}\u{13a0}x.example",
        "x.gitlab\u{0301}.com",
    ];
    for host in lookalike {
        assert!(passes_for_another(&read(host)), "{host}");
    }
    let honest = [
        "github.com",
        "m\u{fc}nchen.de",
        "xn--mnchen-3ya.de",
        "stra\u{df}e.de",
        "caf\u{e9}.example",
        "\u{43f}\u{440}\u{438}\u{43c}\u{435}\u{440}.\u{440}\u{444}",
        "\u{44f}\u{43d}\u{434}\u{435}\u{43a}\u{441}.ru",
        "\u{441}\u{43e}\u{440}.\u{440}\u{444}",
        "\u{4f8b}\u{3048}.jp",
        "\u{3b5}\u{3bb}\u{3bb}\u{3ac}\u{3b4}\u{3b1}.gr",
        "i\u{2764}.ws",
        "10.0.0.5",
        "[::1]",
    ];
    for host in honest {
        assert!(!passes_for_another(&read(host)), "{host}");
    }
}
