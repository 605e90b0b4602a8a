// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The ranked word lists of the strength meter. Deliberately small (the SDK ships in apps); what they miss is
// covered by the meter's conservative per-letter estimate for word-like runs (see PasswordGuessEstimator).

enum PasswordWordLists {
    /// Frequently leaked passwords, most common first (rank = position + 1).
    static let commonPasswords: [String] = """
        123456 password 12345678 qwerty 123456789 12345 1234 111111 1234567 dragon 123123 baseball abc123 football \
        monkey letmein shadow master 666666 qwertyuiop 123321 mustang 1234567890 michael 654321 superman 1qaz2wsx \
        7777777 121212 000000 qazwsx 123qwe killer trustno1 jordan jennifer zxcvbnm asdfgh hunter buster soccer \
        harley batman andrew tigger sunshine iloveyou 2000 charlie robert thomas hockey ranger daniel starwars \
        klaster 112233 george computer michelle jessica pepper 1111 zxcvbn 555555 11111111 131313 freedom 777777 \
        pass maggie 159753 aaaaaa ginger princess joshua cheese amanda summer love ashley nicole chelsea biteme \
        matthew access yankees 987654321 dallas austin thunder taylor matrix welcome admin login passw0rd hello \
        whatever password1 password123 qwerty123 1q2w3e4r 1q2w3e4r5t qwe123 zaq12wsx abcd1234 123abc football1 \
        baseball1 iloveyou1 princess1 monkey1 dragon1 sunshine1 letmein1 welcome1 admin123 root toor changeme \
        secret secret123 default guest test test123 testing qwertyui asdfghjkl asdf1234 q1w2e3r4 1qazxsw2 \
        zxcvbnm123 abc12345 11223344 aa123456 a123456 123456a 123654 147258369 159357 789456 456789 987654 \
        852456 741852963 112233445566 1234qwer qwer1234 passpass p@ssw0rd p@ssword pa55word pa55w0rd \
        password12 password1234 password12345 password123456 mypassword letmein123 iloveyou123 sunshine123 \
        flower lovely purple orange banana apple samsung google facebook linkedin twitter instagram \
        pokemon naruto minecraft fortnite liverpool arsenal chelsea1 manchester barcelona realmadrid \
        jesus christ blessed angel angels heaven loveme lovelove iloveu babygirl baby1234 family forever \
        friends mother father sister brother daddy mommy monkey123 shadow1 master1 killer1 ninja \
        superman1 batman1 spiderman ironman starwars1 hello123 hello1234 hellohello welcome123 \
        administrator adminadmin rootroot user1234 qazwsxedc qazwsx123 1qaz2wsx3edc zaq1xsw2 \
        azerty azerty123 qwertz qwertz123 trustno11 whatever1 nothing nopassword access14
        """.split(separator: " ").map(String.init)

    /// Common English words and names, roughly most frequent first.
    static let englishWords: [String] = """
        the and that have for not with you this but his from they say her she will one all would there their \
        what out about who get which when make can like time just him know take people into year your good \
        some could them see other than then now look only come its over think also back after use two how our \
        work first well way even new want because any these give day most us great little world life hand part \
        child eye woman man place week case point home water room mother area money story fact month lot right \
        study book job word business issue side kind head house service friend father power hour game line end \
        member law car city community name president team minute idea kid body information school face others \
        level office door health person art war history party result change morning reason research girl guy \
        moment air teacher force education foot boy age policy music market sense nation plan college interest \
        death experience effect class control care field development role effort rate heart drug show leader \
        light voice wife police mind price report decision son view relationship town road arm difference \
        value building action model season society tax director position player record paper space ground form \
        event official matter center couple site project activity star table need court oil situation cost \
        industry figure street image phone data picture practice piece land product doctor wall patient worker \
        news test movie north love support technology step baby computer type attention film tree source \
        organization hair window evidence population site energy color colour summer winter spring autumn \
        garden flower sunflower rainbow butterfly dragon tiger lion eagle horse puppy kitten monkey dolphin \
        ocean river mountain forest island beach desert sunset sunrise moon sun stars planet galaxy universe \
        happy lucky magic secret hidden silver golden purple orange yellow green blue black white red pink \
        coffee chocolate cookie cheese pizza banana apple cherry strawberry lemon pepper sugar honey bread \
        football baseball soccer hockey basketball tennis golf running dancing music guitar piano singer \
        correct horse battery staple blue sky castle kingdom knight princess prince queen king wizard \
        welcome hello goodbye thanks please sorry friend friends family freedom liberty justice victory \
        password letmein master shadow killer hunter ranger soldier warrior champion winner \
        michael james john robert david william richard joseph thomas charles christopher daniel matthew \
        anthony mark donald steven paul andrew joshua kenneth kevin brian george timothy ronald edward jason \
        jeffrey ryan jacob gary nicholas eric jonathan stephen larry justin scott brandon benjamin samuel \
        mary patricia jennifer linda elizabeth barbara susan jessica sarah karen lisa nancy betty margaret \
        sandra ashley kimberly emily donna michelle carol amanda dorothy melissa deborah stephanie rebecca \
        sharon laura cynthia kathleen amy angela shirley anna brenda pamela emma nicole helen samantha \
        katherine christine debra rachel carolyn janet catherine maria heather diane ruth julie olivia \
        sophia isabella charlotte amelia mia harper evelyn abigail ella scarlett grace chloe victoria
        """.split(separator: " ").map(String.init)
}
