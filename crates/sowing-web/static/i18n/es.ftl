# La página en español (docs/web.md, "Languages"): español latinoamericano, de tú.
# Palabras fijas: hoyo (pit), semilla (seed), sembrar (sow), vuelta (lap), relevo (relay),
# almacén (store, Ayoayo), Sur y Norte, partida (game), serie de rondas (match). Las palabras
# del juego se quedan: casa, Hoyito. Sintaxis Fluent: https://projectfluent.org/
# Los mismos mensajes que en.ftl: lo comprueba crates/sowing-web/tests/catalogues.rs.

language-name = Español
language-choice =
    .title = Idioma
    .aria-label = Idioma

## El marco de la página (index.html)

nav-learn = Aprender
    .title = Las reglas, mostradas en el tablero
nav-new = Partida nueva
    .title = Partida nueva (n)
nav-saved = Partidas guardadas
nav-upload =
    .title = Sube el registro de una partida para repasarla o seguirla
nav-upload-text = Subir registro
offline = No se puede conectar con el servidor ahora mismo; se vuelve a intentar solo. Tu partida está a salvo: cada jugada se guardó al jugarla. Las partidas en vivo, las cuentas, la sala y los torneos necesitan la conexión. Aún puedes empezar una partida contra la computadora: se guarda aquí y se envía cuando el servidor vuelva.
offline-needs-server = Los encuentros y las partidas en vivo necesitan la conexión: no se pueden empezar mientras el servidor no responda.
play-section =
    .aria-label = Tablero
learn-close = Cerrar Aprender
learn-how = Cada regla en el tablero: mírala y luego pruébala.
lesson-watch = Ver el ejemplo
lesson-try = Pruébalo tú
lesson-next = Siguiente regla ▶
evalbar =
    .aria-label = Evaluación
    .title = Evaluación: Sur abajo en la barra
board =
    .aria-label = El tablero
legend-legal = puedes sembrar
legend-last = la última jugada
legend-hint = la pista
legend-values = +4 / −4: lo que gana o pierde sembrar ese hoyo con juego perfecto
btn-step = Siguiente jugada ▶
    .title = Juega la siguiente jugada con la siembra animada
btn-live = Volver a la partida
btn-undo = Deshacer
    .title = Deshacer (u)
btn-redo = Rehacer
    .title = Rehacer (r)
btn-pass = Pasar
    .title = Pasar (p)
btn-hint = Pista
    .title = Pista (?)
btn-flip = Girar tablero
    .title = Darle la vuelta al tablero (t)
btn-skip = Saltar animación
    .title = Saltar la animación (espacio)
eval-on = Evaluación
tables-on = Valores con juego perfecto
tables-on-label =
    .title = Dentro de las tablas de finales, cada hoyo jugable muestra el valor exacto de sembrarlo
speed = Velocidad
moves-aside =
    .aria-label = Jugadas
moves-title = Jugadas
download = Descargar registro
keys-title = Teclado
keys-text = La letra de un hoyo lo juega · <kbd>p</kbd> pasar · <kbd>u</kbd> deshacer · <kbd>r</kbd> rehacer · <kbd>t</kbd> girar · <kbd>?</kbd> pista · <kbd>Espacio</kbd> saltar la animación · <kbd>←</kbd> <kbd>→</kbd> <kbd>Inicio</kbd> <kbd>Fin</kbd> recorrer la partida · <kbd>n</kbd> partida nueva. <kbd>Tab</kbd> llega a los hoyos jugables; <kbd>Enter</kbd> juega.

## La ventana de partida nueva

new-game-title = Partida nueva
f-game = Juego
about-learn = Aprende primero las reglas en el tablero
f-rounds = Rondas
f-time = Tiempo para pensar de la computadora
think-time = { $seconds } s
btn-start = Empezar
btn-cancel = Cancelar
seat-south = Sur ({ $place ->
        [left] izquierda
        [right] derecha
        [top] arriba
       *[bottom] abajo
    }, mueve primero)
seat-north = Norte ({ $place ->
        [left] izquierda
        [right] derecha
        [bottom] abajo
       *[top] arriba
    })
player-option = { $kind ->
        [human] Una persona en esta pantalla
        [level] Computadora, nivel { $level }
        [greedy] Computadora, glotona
        [random] Computadora, al azar
       *[other] Computadora, { $spec }
    }
entry-board = { $game } (2×{ $pits })
entry-single = { $game }, partida suelta
entry-match = { $game }, serie de rondas
rule-ref = regla { $rule }
about-hoyito-ii = Dos filas de hoyos, con cuatro semillas en cada uno. Toma todas las semillas de uno de tus hoyos y siémbralas una a una hacia la derecha, dando la vuelta al tablero. Manda el hoyo donde cae la última semilla: si queda con cuatro exactas es una casa — te la llevas (y las de cuatro que tiene justo detrás) y vuelves a jugar; si estaba vacío, se acaba tu jugada; cualquier otro hoyo se levanta y se sigue sembrando (un relevo). Gana quien se lleve más semillas.
about-hoyito-ii-seat = Sur mueve primero, y ese es el puesto difícil: con el mejor juego, la salida vale unas { $seeds } semillas para Norte.
about-hoyito-ii-seat12 = Sur mueve primero, y ese es el puesto difícil: una búsqueda profunda (20 millones de posiciones) valora la salida en 2×12 en unas { $seeds } semillas para Norte.
about-solved-north = Sur mueve primero, y ese es el puesto difícil — resuelto: con el mejor juego, Norte gana por { $seeds } semillas.
about-hoyito-iii = Hoyito II con dos cambios: una casa se lleva solo el hoyo donde cayó la última semilla (sin cadena), y las últimas cuatro semillas son para quien se lleva las cuatro de antes — o, en una serie, para el ganador de la ronda anterior.
about-hoyito-iii-seat = Sur mueve primero, y ese es el puesto difícil: con el mejor juego, la salida vale unas { $seeds } semillas para Norte. En una serie, quien sale se va turnando.
about-ayoayo = Dos filas de hoyos y un almacén para cada jugador. Siembra desde uno de tus hoyos, saltándote el hoyo que levantaste; una vuelta que termina en un hoyo con semillas se levanta y se sigue sembrando. Cuando la última semilla cae en un hoyo vacío de tu fila, capturas esa semilla y las del hoyo de enfrente. Si la fila de tu rival está vacía, tienes que darle semillas. Gana quien tenga más semillas en su almacén.
about-ayoayo-seat = Sur mueve primero, y ese es el puesto fácil: el de Norte es el difícil. Una búsqueda profunda desde la salida la valora en unas { $seeds } semillas para Sur.
about-solved-south = Sur mueve primero, y ese es el puesto fácil: el de Norte es el difícil — resuelto: con el mejor juego, Sur gana por { $seeds } semillas.
about-solved-draw = Sur mueve primero, y ningún puesto es más difícil — resuelto: con el mejor juego, la partida termina en tablas.
about-bounded = Sur mueve primero. Aún sin resolver, pero demostrado: con el mejor juego, Norte gana por { $north } semillas como mucho, y Sur por { $south } como mucho.
about-bounded-north = Sur mueve primero, y ese es el puesto difícil — aún sin resolver, pero demostrado: con el mejor juego, Norte gana, por { $least } a { $most } semillas.
about-bounded-south = Sur mueve primero, y ese es el puesto fácil: el de Norte es el difícil — aún sin resolver, pero demostrado: con el mejor juego, Sur gana, por { $least } a { $most } semillas.

# Las opciones de reglas (GET /api/rules): el nombre, `.about`, y un atributo por valor.
option-casa-rows = Casas
    .about = Qué hoyos de cuatro son casas: en cualquier fila, o solo en la del rival
    .any = en cualquier fila
    .opponent = solo en la fila del rival
option-leftover = Semillas que quedan si no se puede alimentar
    .about = Quién se lleva las semillas que quedan cuando el que mueve no puede alimentar: el último que sembró, o el dueño de cada fila
    .last-mover = para el último que sembró
    .holder = para el dueño de cada fila
option-final-four = Últimas cuatro
    .about = Quién se lleva las últimas cuatro semillas: el que captura, o un jugador fijo; en una serie se decide ronda a ronda
    .capturer = para el que captura
    .south = para Sur
    .north = para Norte

## Jugadores, lados y tablero

side = { $side ->
        [south] Sur
       *[north] Norte
    }
side-initial = { $side ->
        [south] S
       *[north] N
    }
player-name = { $kind ->
        [human] persona
        [level] computadora, nivel { $level }
        [greedy] computadora, glotona
        [random] computadora, al azar
       *[other] computadora, { $spec }
    }
a-person = una persona
store-label = Almacén { $side ->
        [south] Sur
       *[north] Norte
    }
took-label = { $side ->
        [south] Sur
       *[north] Norte
    } lleva
pit-label = Hoyo { $pit }, { $seeds } { $seeds ->
        [one] semilla
       *[other] semillas
    }
pit-playable = Hoyo { $pit }, { $seeds } { $seeds ->
        [one] semilla
       *[other] semillas
    }: juégalo
# El nombre de una jugada: la letra de un hoyo, o esto.
move-pass = pasar

## La partida tal como está

no-game = No hay ninguna partida abierta: empieza una nueva o abre una guardada.
game-title = { $game } 2×{ $pits }{ $match ->
        [yes] { " " }— serie, ronda { $round } de { $rounds }
       *[no] {""}
    }{ $hasOptions ->
        [yes] { " " }({ $options })
       *[no] {""}
    } · partida { $id }
title-option = { $option }: { $value }
learn-board-title = Aprender: { $lesson } — el tablero es tuyo para probar
player-line = <b>{ $side }</b> — { $player } · lleva <b>{ $captured }</b>{ $turn ->
        [yes] { " " }◀ le toca
       *[no] {""}
    }
status-over = Fin de la partida: { $result }.
status-in-game = En la partida le toca a { $who }.
status-computer = Le toca a { $who } ({ $player }).
status-must-pass = { $who } no tiene ninguna siembra posible y tiene que pasar.
status-to-move = Le toca a { $who }: { $touch ->
        [yes] toca un hoyo marcado.
       *[no] haz clic en un hoyo marcado o escribe su letra.
    }
status-thinking = { $who } ({ $player }) está pensando…
status-plays = { $who } juega { $move }.
status-not-playable = { $pit } no se puede jugar ahora: elige un hoyo marcado.
viewing-start = Estás viendo la salida.
viewing-after = Estás viendo la posición tras la jugada { $ply } ({ $side ->
        [south] Sur
       *[north] Norte
    } { $move }).
moves-start = salida
move-title = Jugada { $ply }: { $side ->
        [south] Sur
       *[north] Norte
    } { $move }
taken-back = Se deshizo hasta la jugada { $ply }: le toca a { $who }.
round-begins = Empieza la ronda { $round }: sale { $who }.

## Lo que hizo una jugada

say-lift = { $who } levanta { $seeds } de { $pit }
say-relay = Vuelta { $lap }: relevo — levanta { $seeds } de { $pit }
say-skip = Vuelta { $lap }: se salta { $pit }, el hoyo de donde se levantó
say-take = { $who } { $why ->
        [capture] captura { $seeds } de { $pit }
        [last-four] se lleva las últimas cuatro: { $seeds } de { $pit }
        [leftover] se lleva las semillas que quedan en { $pit }: { $seeds }
       *[other] se lleva { $seeds } de { $pit }
    }
say-extra-turn = { $who } capturó: vuelve a jugar
say-pass = { $who } no tiene jugada y pasa
list-and = { $rest } y { $last }
list-comma = {", "}
list-semicolon = {"; "}
move-passed = { $who } no tenía ninguna siembra posible y pasó.
move-sowed = { $who } sembró { $move }: { $did }{ $hasThen ->
        [yes] { " " }— { $then }
       *[no] {""}
    }.
did-skip = se saltó { $pits }
did-relay = hizo { $count ->
        [1] un relevo
       *[other] { $count } relevos
    }
did-capture-across = terminó en { $end ->
        [none] un hoyo
       *[other] { $end }
    } vacío y capturó { $seeds ->
        [one] la semilla
       *[other] las { $seeds } semillas
    } de enfrente, en { $across }
did-casa = hizo casa en { $pits }
did-chain = hizo una cadena de casas en { $pits }
did-empty = terminó en un hoyo vacío
then-takes = { $who } se lleva { $seeds }{ $again ->
        [yes] { " " }y vuelve a jugar
       *[no] {""}
    }
then-again = { $who } vuelve a jugar
then-last-four = { $who } se lleva las últimas cuatro
then-left = { $who } se lleva { $seeds ->
        [one] la semilla que queda
       *[other] las { $seeds } semillas que quedan
    }
turn-told = Turno de { $who }: { $count } jugadas ({ $moves }){ $seeds ->
        [0] {""}
        [one] , con { $seeds } semilla capturada
       *[other] , con { $seeds } semillas capturadas
    }. Última: { $last }

## El final de una partida

end-short = { $reason ->
        [board-cleared] el tablero quedó vacío
        [last-four] las últimas cuatro fueron para { $to }
        [cannot-feed] el que movía no podía alimentar
        [repetition] se repitió una posición
       *[other] la partida terminó
    }
end-over = la partida terminó
result = { $winner ->
        [draw] empate
       *[other] gana { $who }
    }, { $first }–{ $second }{ $hasWhy ->
        [yes] { " " }— { $why }
       *[no] {""}
    }
moves-and-turns = { $moves } { $moves ->
        [one] jugada
       *[other] jugadas
    }{ $same ->
        [yes] {""}
       *[no] { " " }en { $turns } { $turns ->
            [one] turno
           *[other] turnos
        }
    }
summary-headline = { $winner ->
        [draw] Empate
       *[other] Gana { $who }
    }
summary-why = La partida terminó porque { $reason ->
        [last-four] una captura dejó exactamente cuatro semillas y se las llevó { $to }
        [board-cleared] una captura dejó el tablero vacío
        [cannot-feed] el que movía no podía alimentar la fila vacía, así que { $leftover ->
            [holder] cada semilla que quedaba fue para el dueño de su fila
           *[other] las semillas que quedaban fueron para el último que sembró
        }
        [repetition] se repitió una posición, así que las semillas del tablero no son de nadie
       *[other] se acabó
    } (después de { $moves }).
summary-new = { $leaves ->
        [yes] Partida nueva (deja la serie)
       *[no] Partida nueva
    }
summary-review = Repasar desde la salida
next-round = Empezar la ronda { $round } de { $rounds }
live-end = { $reason ->
        [flag] { $outcome ->
            [draw] al que le tocaba se le acabó el tiempo, pero su rival ya no podía ganar en capturas: empate
           *[other] a { $loser } se le acabó el tiempo: gana { $winner }
        }
        [resignation] { $loser } se rindió: gana { $winner }
        [agreement] empate de común acuerdo
        [abandoned] cerrada: nadie jugó en mucho tiempo
        [aborted] anulada: una primera jugada no llegó a tiempo (no puntúa)
        [expired] cerrada: nadie ocupó el puesto libre a tiempo
       *[other] cerrada
    }{ $match ->
        [yes] ; la serie termina con esta ronda
       *[no] {""}
    }

## Una serie de rondas

match-title = Serie: { $rounds } { $rounds ->
        [one] ronda
       *[other] rondas
    }
match-round = Ronda
match-starts = Sale
match-last-four = Últimas cuatro
match-winner = Ganador
final-four = { $to ->
        [south] Sur
        [north] Norte
       *[other] el que captura
    }
round-winner = { $winner ->
        [south] Sur
        [north] Norte
       *[other] Empate
    }
match-rounds-won = Rondas ganadas { $south }–{ $north }
match-over = <b>Fin de la serie: { $winner ->
        [draw] empate
       *[other] { $who } gana la serie
    }</b> (rondas { $south }–{ $north }, semillas { $southSeeds }–{ $northSeeds }).
match-next-ready = La ronda { $round } está lista: empiézala desde el resumen de arriba.

## La barra de evaluación, la pista y los valores con juego perfecto

score-proven = { $margin ->
        [0] empate con el mejor juego
       *[other] { $who } gana por { $margin } con el mejor juego
    }
score-estimate = { $margin ->
        [0] más o menos igualados
        [one] { $who } va más o menos una semilla por delante
       *[other] { $who } va unas { $margin } semillas por delante
    }
eval-words = { $score }.
eval-final-title = resultado final
eval-final = { $margin ->
        [0] La partida terminó en empate.
       *[other] { $who } ganó por { $margin }.
    }
eval-unclear = Incierto: la computadora todavía no ha mirado lo bastante lejos para juzgar esta posición.
eval-unclear-title = { $engine } solo llegó a profundidad { $depth } (un valor necesita { $needs })
eval-score-title = { $engine }: { $score }{ $depth ->
        [0] {""}
       *[other] , profundidad { $depth }
    }
eval-none-title = { $engine } no da evaluación; la barra muestra las capturas
eval-none = Sin evaluación: la barra muestra las semillas que se han llevado hasta ahora.
eval-failed-title = sin evaluación ({ $error }); la barra muestra las capturas
eval-failed = Ahora no hay evaluación: la barra muestra las semillas que se han llevado hasta ahora.
eval-bar-title = Evaluación, desde el punto de vista de Sur: { $title }
eval-bar-label = Evaluación: { $words } ({ $title })
hint-bare = Lo mejor: { $move }.
hint-proven = Lo mejor: { $move } — { $margin ->
        [0] empate con el mejor juego.
       *[other] { $ahead ->
            [yes] ganas
           *[no] pierdes
        } por { $margin } con el mejor juego.
    }
hint-estimate = Lo mejor: { $move } — { $margin ->
        [0] la partida sigue más o menos igualada.
        [one] sigues más o menos una semilla { $ahead ->
            [yes] por delante
           *[no] por detrás
        }.
       *[other] sigues unas { $margin } semillas { $ahead ->
            [yes] por delante
           *[no] por detrás
        }.
    }
table-value = { $pit }: { $kind ->
        [draw] empate
        [win] gana por { $margin }
       *[loss] pierde por { $margin }
    } con juego perfecto
tables-not-built = Las tablas de finales no tienen la capa de { $seeds } semillas en el tablero (por defecto solo se construyen las que se alcanzan jugando desde la salida): agrégala con sow tables build --layer { $seeds }

## Partidas guardadas, registros y claves

saved-title = Partidas guardadas
saved-how = Las partidas de este navegador. Cualquiera con el enlace de una partida puede verla; solo este navegador puede seguir jugándola o borrarla.
saved-game = Juego
saved-south = Sur
saved-north = Norte
saved-moves = Jugadas
saved-result = Resultado
saved-when = Última jugada
saved-outcome = { $winner ->
        [draw] empate
        [south] ganó Sur
       *[north] ganó Norte
    }
saved-closed = cerrada, sin resultado
saved-in-play = en juego
saved-name = { $game } 2×{ $pits }{ $live ->
        [yes] , con un amigo
       *[no] {""}
    }{ $inMatch ->
        [yes] , serie { $match } ronda { $round }
       *[no] {""}
    }
saved-open = { $over ->
        [yes] Repasar
       *[no] Seguir
    }
saved-delete = Borrar
    .title = Borrar esta partida
loading = Cargando…
no-games = Todavía no hay partidas.
confirm-delete = ¿Borrar la partida { $id }? No se puede deshacer.
not-deleted = No se borró: { $error }
record-loaded = Registro cargado como partida { $id }: recórrelo en la lista de jugadas o sigue jugando.
record-unread = No se pudo leer el registro: { $error }
key-title = Tus partidas en otro dispositivo
key-how = La clave de jugador de este navegador abre sus partidas en cualquier sitio. No se la des a nadie: quien la tenga puede jugar en tus partidas y borrarlas.
key-mine = Tu clave
key-other-label = Una clave de otro dispositivo
key-other =
    .placeholder = 32 letras y dígitos
key-use = Usarla aquí
key-used = Este navegador usa ahora esa clave: sus partidas están en la lista de arriba.
key-bad = Una clave de jugador tiene 32 caracteres: letras de la a a la f y dígitos.
copy = Copiar
copied = Copiada.
close = Cerrar
game-not-opened = No se pudo abrir la partida { $id }: { $error }
game-gone = No se pudo abrir la partida { $id }: { $error }. ¿Empiezas una nueva?
games-not-loaded = No se pudieron cargar los juegos: { $error }

## Aprender

learn-title = Aprender { $game }
learn-event = Aprender: { $lesson }
lesson-press-watch = Presiona «Ver el ejemplo» para ver la regla en juego y luego pruébala tú.
lesson-watching = Mira…
lesson-watched = Ese fue el ejemplo. Presiona «Pruébalo tú» para jugarlo desde la misma posición.
lesson-played = Jugaste { $move }. { $last ->
        [yes] Esas son todas las reglas de este juego: ¡empieza una partida!
       *[no] ¿Pasamos a la siguiente regla?
    }
lesson-well-done = ¡Muy bien! { $last ->
        [yes] Esas son todas las reglas de este juego: ¡empieza una partida!
       *[no] ¿Pasamos a la siguiente regla?
    }
lesson-not-that = Jugaste { $move }, no { $expected }. Presiona «Pruébalo tú» para empezar otra vez.
lesson-before-example = Jugaste { $move } antes de ver el ejemplo: { $right ->
        [yes] esa es la jugada que muestra esta lección.
       *[no] esta lección muestra otra jugada.
    } Presiona «Ver el ejemplo» para ver la regla en juego, o «Pruébalo tú» para empezar otra vez.

# Cada lección: su título, su explicación y lo que se pide probar.
lesson-h2-sowing-and-relays =
    .title = Sembrar y relevos
    .words = En tu turno, levanta todas las semillas de uno de tus hoyos y déjalas caer una a una en los hoyos que siguen, en sentido contrario a las agujas del reloj: por tu fila hacia la derecha y luego de vuelta por la fila de tu rival. Después mira el hoyo donde cayó la última semilla. Si estaba vacío (ahora tiene una), tu jugada termina. Si ahora tiene más — pero no exactamente cuatro — levántalas todas y sigue sembrando desde ahí: un relevo.
    .ask = Ahora tú: siembra C. Sus dos semillas van a D y a E; E queda con tres, así que se levantan y se siguen sembrando, y la última cae en b, que está vacío.
lesson-h2-a-casa =
    .title = Una casa
    .words = Si la última semilla de una vuelta deja un hoyo con cuatro exactas, ese hoyo es una casa: te llevas sus cuatro semillas y vuelves a jugar, con el hoyo tuyo que quieras. Las semillas que pasan por un cuatro durante la vuelta no se llevan nada: solo cuenta dónde cae la última.
    .ask = Ahora tú: siembra C. Su última semilla deja F con cuatro: una casa.
lesson-h2-a-chain-of-casas =
    .title = Una cadena de casas
    .words = Después de llevarte una casa, mira el hoyo justo anterior, hacia atrás alrededor del tablero (también pasando de una fila a otra). Si tiene cuatro exactas, llévatelo también, y el de antes, y así hasta llegar a un hoyo que no tenga cuatro. (Con la opción «Casas: solo en la fila del rival», solo cuentan los cuatros de la fila de tu rival.)
    .ask = Ahora tú: siembra D. a se vuelve casa, y también F y E, que están detrás: doce semillas y otra jugada.
lesson-h2-casas-on-the-opponents-row-only =
    .title = Casas solo en la fila del rival
    .words = Con la opción de partida nueva «Casas: solo en la fila del rival», un cuatro en tu propia fila nunca es casa: si tu última semilla deja cuatro ahí, es un relevo como en cualquier otro hoyo, y una cadena se detiene al llegar a tu fila. Esta es la posición de la lección anterior, jugada con esa opción.
    .ask = Ahora tú: siembra D. a, en la fila de Norte, es casa; F y E, detrás, tienen cuatro pero están en tu propia fila, así que la cadena se detiene: cuatro semillas y otra jugada.
lesson-h2-the-last-four-and-the-end =
    .title = Las últimas cuatro y el final
    .words = Cuando una captura deja exactamente cuatro semillas en el tablero, son para el jugador que capturó, y la partida termina; una captura que deja el tablero vacío también la termina. Gana el jugador que se llevó más semillas; si hay igualdad, es empate.
    .ask = Ahora tú: siembra B. C se vuelve casa, y las cuatro semillas que quedan (dos en a y dos en f) también son tuyas.
lesson-h2-passing =
    .title = Pasar
    .words = Un jugador que no tiene ningún hoyo que se pueda sembrar — con todos los hoyos de su fila vacíos — pasa, y solo entonces; el otro jugador vuelve a jugar.
    .ask = Ahora tú: la fila de Sur está vacía, así que presiona Pasar (o escribe p).
lesson-h2-an-endless-sowing-is-refused =
    .title = Una siembra sin fin no vale
    .words = Los relevos pueden dar vueltas al tablero para siempre. Una jugada cuya siembra no ha terminado después de { 65536 } vueltas no está permitida, igual que sembrar un hoyo vacío; un jugador sin ninguna jugada permitida pasa. Estas jugadas son raras, pero pasan.
    .ask = E tiene tres semillas pero no está marcado: sembrarlo daría vueltas para siempre (cada 60 vueltas, lo mismo). Haz clic en él para verlo; puedes jugar cualquier hoyo marcado.
lesson-h2-a-position-comes-back =
    .title = Una posición que vuelve
    .words = Si una posición vuelve a darse en una partida — las mismas semillas en cada hoyo y el mismo jugador por mover — la partida termina en el acto. Las semillas que siguen en el tablero no son de nadie, y deciden las que cada uno se llevó hasta entonces. Solo puede pasar entre dos capturas. (En Hoyito III la posición incluye también quién se lleva las últimas cuatro; en Ayoayo, quién hizo la última siembra.) Aquí, cuatro semillas llevan cinco jugadas dando vueltas al tablero sin ninguna captura.
    .ask = Ahora tú, como Norte: siembra b. Sus relevos devuelven el tablero a como estaba al empezar esta lección, con Sur por mover: la partida termina en empate, 20–20.
lesson-h3-as-hoyito-ii =
    .title = Como Hoyito II
    .words = El Hoyito III se juega como el Hoyito II — siembra, relevos, casa cuando la última semilla deja cuatro, otra jugada después de una captura, pasar, nada de siembras sin fin — con dos diferencias, que vienen ahora. Si no lo has hecho, aprende primero el Hoyito II.
    .ask = Ahora tú: siembra C. Su última semilla deja F con cuatro: una casa y otra jugada.
lesson-h3-one-casa-at-a-time =
    .title = Una casa cada vez
    .words = Una captura se lleva solo el hoyo donde cayó la última semilla: los cuatros que tiene detrás se quedan en el tablero, donde cualquiera de los dos puede hacerlos casa más adelante.
    .ask = Ahora tú: siembra D. a se vuelve casa; E y F también tienen cuatro, pero se quedan (en Hoyito II se irían las tres).
lesson-h3-the-last-four =
    .title = Las últimas cuatro
    .words = En una partida suelta, quien se lleva las cuatro de antes se lleva también las últimas cuatro, y la partida termina. En una serie de rondas, desde la ronda 3 las últimas cuatro son en cambio para el ganador de la ronda anterior (para el que captura si esa ronda fue empate), y quien sale se va turnando.
    .ask = Ahora tú: siembra B. C se vuelve casa, y las últimas cuatro semillas son tuyas.
lesson-h3-the-last-four-in-a-match =
    .title = Las últimas cuatro en una serie
    .words = En una serie, desde la ronda 3 las últimas cuatro son para el ganador de la ronda anterior — aquí Norte —, sea quien sea el que hizo la captura de antes. (Después de una ronda empatada son para el que captura, como en una partida suelta.) Esta es la posición de la lección anterior, como si fuera la ronda 3 de una serie en la que Norte ganó la ronda 2.
    .ask = Ahora tú: siembra B. C se vuelve casa, pero las últimas cuatro son para Norte, que ganó la ronda anterior: empate, 4–4.
lesson-ayo-sowing-and-relays =
    .title = Sembrar y relevos
    .words = Cada jugador tiene un almacén al lado de su fila (en el que nunca se siembra). En tu turno, levanta todas las semillas de uno de tus hoyos y siémbralas una a una en sentido contrario a las agujas del reloj. Si la última semilla cae en un hoyo que ya tenía semillas, levántalas todas y sigue sembrando: un relevo. Cuando la última semilla cae en un hoyo vacío, la jugada termina.
    .ask = Ahora tú: siembra C. E queda con tres, así que se levantan y se siguen sembrando, y la última semilla cae en b, que está vacío.
lesson-ayo-capture =
    .title = Capturar
    .words = Si tu jugada termina en un hoyo vacío de tu propia fila y el hoyo de enfrente tiene semillas, esas semillas y tu última semilla van a tu almacén. Solo captura el final de la jugada.
    .ask = Ahora tú: siembra B. Su semilla cae en C, que está vacío, y las tres semillas de enfrente, en d, son tuyas.
lesson-ayo-skipping-the-pit-you-lifted =
    .title = Saltarse el hoyo que levantaste
    .words = Una vuelta nunca deja una semilla en el hoyo del que se levantó: con doce semillas o más, la siembra da la vuelta y se lo salta. (En Hoyito no se salta.)
    .ask = Ahora tú: siembra A. Su duodécima semilla se salta A y cae en B; los relevos dan la vuelta y terminan con una captura.
lesson-ayo-feeding =
    .title = Alimentar
    .words = Si la fila de tu rival está vacía, tienes que hacer una jugada que le dé semillas. Las jugadas que no se las dan no están permitidas.
    .ask = Ahora tú: la fila de Norte está vacía. A no llegaría hasta ella, así que solo F está marcado: siembra F.
lesson-ayo-passing =
    .title = Pasar
    .words = Un jugador con su fila vacía — o cuyas jugadas sembrarían todas para siempre — pasa. Entonces juega el otro, y tiene que alimentar la fila vacía si puede.
    .ask = Ahora tú: la fila de Sur está vacía, así que presiona Pasar (o escribe p). Norte tendrá que alimentarte: solo f está marcado, porque c se quedaría en la fila de Norte.
lesson-ayo-the-end =
    .title = El final
    .words = Cuando el jugador al que le toca no puede alimentar una fila vacía, la partida termina, y las semillas que quedan en el tablero son para el jugador que hizo la última siembra (con la opción «para el dueño de cada fila», cada semilla es para el dueño de su fila). Una captura que deja el tablero vacío también la termina. Gana quien tenga más semillas en su almacén.
    .ask = Ahora tú: siembra F. La fila de Sur queda vacía y Norte no puede alimentarla, así que la partida termina y las semillas que quedan son tuyas.
lesson-ayo-the-seeds-left-to-each-rows-owner =
    .title = Las semillas que quedan: para el dueño de cada fila
    .words = La opción de partida nueva «Semillas que quedan si no se puede alimentar: para el dueño de cada fila» cambia quién se lleva las semillas que quedan cuando un jugador no puede alimentar: cada semilla es para el jugador en cuya fila está, no para el último que sembró. Es la misma posición de la lección anterior, jugada con esa opción.
    .ask = Ahora tú: siembra F. Norte no puede alimentarte, y las dos semillas que quedan están en la fila de Norte: Norte se las lleva y gana, 25–23.

## Las negativas del servidor, por su código (docs/api.md, "Errors"). `detail` son las
## palabras del servidor, en inglés.

error-unreachable = No se puede conectar con el servidor: ¿sigue funcionando sow serve? Vuelve a intentarlo cuando esté.
error-unknown-game = Esa partida no existe: quizá se borró.
error-unknown-match = Esa serie no existe.
error-no-such-move = La partida no tiene esa jugada.
error-illegal-move = Esa jugada no se puede hacer ahora; las jugadas posibles son { $legal }.
error-stale-ply = La partida ha avanzado desde la última vez que esta página la vio: vuelve a cargarla.
error-nothing-to-undo = No hay ninguna jugada que deshacer.
error-nothing-to-redo = No hay ninguna jugada que rehacer.
error-game-over = La partida ya terminó.
error-round-not-over = La ronda actual no ha terminado.
error-match-over = La serie ya terminó.
error-round-closed = Ya empezó una ronda posterior de esta serie: esta ronda ya no puede cambiar.
error-changed-meanwhile = La partida cambió mientras la computadora pensaba: vuelve a cargarla.
error-round-taken = Esa ronda ya se empezó.
error-in-match = Una ronda de una serie no se puede borrar sola: la tabla de resultados la necesita.
error-unknown-player = Jugador desconocido.
error-engine-busy = La computadora está ocupada con otras peticiones: vuelve a intentarlo.
error-engine-no-answer = La computadora no respondió a tiempo.
error-write-conflict = Otra petición cambió esta partida en el mismo momento: vuelve a cargarla.
error-store-unavailable = El servidor no puede llegar a su base de datos ahora mismo: no se perdió nada. Vuelve a intentarlo en unos segundos.
error-store-full = El servidor se quedó sin espacio en disco: tu jugada no se guardó. Vuelve a intentarlo más tarde.
error-not-live = Esta partida no se juega entre dos dispositivos.
error-bad-record = El registro tiene un error: no se puede leer.
error-bad-request = La petición no es válida.
error-forbidden = No tienes permiso para hacer eso.
error-not-found = No se encontró.
error-conflict = Eso no se puede hacer ahora: choca con algo que ya existe o que cambió mientras tanto.
error-too-large = La petición es demasiado grande.
error-unsupported-type = El servidor no acepta ese tipo de petición.
error-unprocessable = El servidor no aceptó la petición: algún dato no es válido.
error-limited = Demasiadas peticiones: espera un poco y vuelve a intentarlo.
error-server = Falló el servidor.
error-signed-out = Tienes que iniciar sesión, o el nombre o la contraseña no son correctos.
error-unknown-account = Ninguna cuenta tiene ese nombre.
error-unknown-seek = Esa búsqueda de rival ya terminó.
error-wrong-recovery-code = Ese nombre y ese código de recuperación no coinciden, o el código ya se usó.
error-unknown-challenge = Ese reto no existe.
error-unknown-tournament = Ese torneo no existe.
error-challenge-gone = Ese reto ya no está abierto: fue respondido o cancelado, o caducó.
error-challenge-refused = Ese jugador no acepta retos tuyos.
error-name-taken = Ese nombre ya está en uso: elige otro.
error-other = El servidor respondió con un error (detalle: { $detail })
error-status = El servidor respondió { $status } { $text }

## Jugar con un amigo (live.js, lobby.js)

live-against = Jugar contra
live-against-here = la computadora, o alguien en esta pantalla
live-against-friend = un amigo en otro dispositivo
live-friend = Jugar con un amigo en otro dispositivo
live-seat-choice = Tu puesto
live-seat-south = Sur (mueve primero)
live-seat-north = Norte
live-clock = Reloj
live-clock-none = sin límite
live-clock-days = { $days } d { $hours } h { $minutes } min
live-clock-per-move = { $days ->
        [one] 1 día por jugada
       *[other] { $days } días por jugada
    }
live-clock-choice = { $seconds ->
        [0] { $minutes } min
       *[other] { $minutes } + { $seconds }
    }
live-name = Tu nombre (opcional)
live-lobby-post = Publicarla en la sala para que cualquiera la acepte
live-invite = Invitar a un amigo
live-panel =
    .aria-label = Partida en vivo
seat-name = { $name } ({ $side })
live-player = { $you ->
        [yes] tú
       *[no] un amigo
    }
live-seat = { $named ->
        [yes] { $name }
       *[no] { $taken ->
            [yes] un amigo
           *[no] esperando a un rival…
        }
    }{ $you ->
        [yes] { " " }(tú)
       *[no] {""}
    }
live-result = { $outcome ->
        [draw] empate
        [none] cerrada sin resultado
       *[other] gana { $who }
    }{ $score ->
        [yes] { $outcome ->
            [none] {""}
           *[other] , { $first }–{ $second }
        }
       *[no] {""}
    }: { $why }
live-not-opened = No se pudo abrir la partida en vivo { $id }: { $error }
live-socket-error = El servidor no entendió un mensaje (detalle: { $detail })
live-round-over = Fin de la ronda: { $result }. La siguiente ronda empieza en un momento…
live-waiting-seat = Esperando a que un rival ocupe el otro puesto.
live-to-move = Le toca a { $who }{ $seated ->
        [yes] { " " }— esperando su jugada.
       *[no] .
    }
live-your-move = Te toca: { $touch ->
        [yes] toca un hoyo marcado.
       *[no] haz clic en un hoyo marcado o escribe su letra.
    }
live-first-move-due = Haz tu primera jugada en { $seconds } s, o la partida se anula.
live-credited = El servidor no estuvo disponible: se devolvieron { $seconds } s al reloj.
live-confirm-resign = { $match ->
        [yes] ¿Te rindes en la serie? (Termina con esta ronda.)
       *[no] ¿Te rindes en esta partida?
    }
live-resign = Rendirse
live-draw = { $state ->
        [theirs] Aceptar el empate
        [mine] Empate propuesto
       *[none] Proponer empate
    }
live-confirm-draw = ¿Aceptas el empate? La partida termina ahora, en empate.
live-takeback = { $state ->
        [theirs] Aceptar deshacer
        [mine] Deshacer pedido
       *[none] Pedir deshacer
    }
    .title = Deshacer la última jugada, si tu rival está de acuerdo
live-confirm-takeback = ¿Aceptas deshacer? Se deshace la última jugada de tu rival.
live-rematch = { $state ->
        [theirs] Aceptar la revancha
        [mine] Revancha pedida
       *[none] Revancha (con los puestos cambiados)
    }
live-decline = Rechazar
live-go-rematch = { $seated ->
        [yes] Jugar la revancha
       *[no] Ver la revancha
    }
live-offer = { $mine ->
        [yes] Tu rival
       *[no] { $who }
    } { $kind ->
        [draw] propone empate
        [takeback] pide deshacer la última jugada
       *[rematch] pide la revancha
    }.
live-match = Serie, ronda { $round } de { $rounds }: rondas ganadas { $south }–{ $north }, semillas { $southSeeds }–{ $northSeeds }{ $winner ->
        [none] {""}
        [draw] { " " }— empate
       *[other] { " " }— { $who } gana la serie
    }.
live-watchers = { $count } { $count ->
        [one] mirando
       *[other] mirando
    } · { $connected ->
        [yes] en vivo
       *[no] reconectando…
    }
live-link-invite = Enlace de invitación (mándaselo a tu amigo):
live-link-mine = Tu puesto (para volver desde cualquier dispositivo; no se lo des a nadie):
live-link-watch = Enlace para mirar:
live-link-copied = { $label } copiado.
lobby-title = Sala
lobby-how = Retos abiertos: acepta uno para jugar contra quien lo publicó.
lobby-empty = Ahora no hay ningún reto abierto. Publica uno desde Partida nueva → Jugar con un amigo.
lobby-challenge = { $game } 2×{ $pits }, { $clock ->
        [yes] { $minutes } + { $seconds }
        [days] { $days } d por jugada
       *[no] sin reloj
    } — { $named ->
        [yes] { $name }
       *[no] alguien
    } (juegas con { $open })
lobby-open = Abrir
lobby-accept = Aceptar
lobby-not-accepted = No se pudo aceptar ese reto: { $error }

## Accounts and ratings (account.js)
account-sign-in = Iniciar sesión
account-button = { $name } ▾
account-title = Cuenta
account-leaders = Clasificación
account-sign-up-title = Cuenta nueva
account-name = Nombre
account-password = Contraseña
account-new-password = Contraseña nueva
account-create = Crear la cuenta
account-why = Una cuenta guarda tus partidas y tu puntuación en cualquier dispositivo. Sin cuenta juegas como ahora; las partidas de este navegador pasan a la cuenta cuando la creas o inicias sesión.
account-name-rule = de 2 a 24 letras, cifras, _ o -
account-password-rule = al menos 8 caracteres
account-signed-in-as = Sesión iniciada como { $name }.
account-profile = Tu perfil
account-sign-out = Cerrar sesión
account-sign-out-all = Cerrar sesión en todas partes
account-sign-out-all-title = Cierra la sesión en todos los dispositivos conectados a esta cuenta
account-change-password = Cambiar la contraseña
account-password-changed = { $count ->
        [one] Contraseña cambiada; se cerró 1 sesión más.
       *[other] Contraseña cambiada; se cerraron { $count } sesiones más.
    }
account-signed-out-all = { $count ->
        [one] Sesión cerrada en 1 dispositivo.
       *[other] Sesión cerrada en { $count } dispositivos.
    }
account-moved = { $count ->
        [one] 1 partida de este navegador pasó a tu cuenta.
       *[other] { $count } partidas de este navegador pasaron a tu cuenta.
    }
account-welcome = Bienvenido, { $name }.
account-close = Cerrar
account-ratings = Puntuación
account-results = Resultados por juego
account-games = Partidas puntuadas
account-graph = Puntuación después de cada partida puntuada
account-no-games = Todavía no hay partidas puntuadas.
account-about = Sobre mí
account-save = Guardar
account-saved = Guardado.
account-col-game = Juego
account-col-speed = Ritmo
account-col-rating = Puntuación
account-col-rd = DR
account-col-played = Partidas
account-col-wins = Ganadas
account-col-losses = Perdidas
account-col-draws = Tablas
account-col-rank = #
account-col-player = Jugador
account-col-opponent = Rival
account-col-result = Resultado
account-col-change = Puntuación
account-review-game = Abrir esta partida con su análisis
account-result = { $result ->
        [win] ganada
        [loss] perdida
       *[draw] tablas
    }
account-speed = { $speed ->
        [bullet] Bala
        [blitz] Relámpago
        [rapid] Rápida
        [classical] Clásica
       *[unlimited] Sin reloj
    }
account-empty-board = Todavía no hay nadie puntuado aquí.
account-rated = Partida puntuada (los dos jugadores con sesión iniciada)
account-rated-note = puntuada
account-range = Retadores con puntuación
account-from = de
account-to = a
account-claimed = Tu cuenta ocupa este asiento: la partida se puntúa cuando los dos jugadores hayan iniciado sesión.
account-claim-failed = Tu cuenta no pudo ocupar este asiento: { $detail }
account-codes-title = Códigos de recuperación
account-codes-note = Anota estos códigos, o imprímelos, y guárdalos en un lugar seguro: solo se muestran ahora. Si olvidas tu contraseña, uno de ellos te permite poner una nueva (Iniciar sesión y luego «¿Olvidaste la contraseña?»). Cada código sirve una sola vez.
account-codes-done = Ya los anoté
account-codes-renewed = Códigos nuevos hechos: los anteriores ya no sirven.
account-forgot = ¿Olvidaste la contraseña?
account-forgot-note = Tu nombre, uno de los códigos de recuperación que anotaste al crear la cuenta y una contraseña nueva. Se cierran las demás sesiones de la cuenta.
account-code = Código de recuperación
account-recover = Poner la contraseña nueva
account-recovered = Bienvenido de nuevo, { $name }: tu contraseña nueva está puesta y se cerraron las demás sesiones de la cuenta. Tacha el código que usaste: sirve una sola vez.
account-renew-codes = Hacer códigos nuevos
account-renew-note = Los códigos nuevos anulan los anteriores. Tu contraseña, para confirmar que eres tú:
## La revisión después de la partida (analysis.js; docs/web.md, "Analysis")

analysis-open = Revisar la partida
analysis-open-saved = Revisar
analysis-title = Análisis
analysis-close = Cerrar la revisión
analysis-asking = Pidiéndole el análisis al servidor…
analysis-queued = Esperando a que el servidor empiece el análisis…
analysis-running = Analizando: posición { $done } de { $total }.
analysis-failed = No se pudo obtener el análisis: { $message }
analysis-no-moves = Todavía no hay jugadas que analizar.
analysis-outdated = La partida cambió desde entonces: la estamos analizando de nuevo…
analysis-graph-how = El valor de la partida después de cada turno: por encima de la línea va ganando Sur, por debajo Norte. Haz clic en un punto para ver esa posición.
analysis-graph =
    .aria-label = Gráfica de evaluación
analysis-point = Turno { $turn }, { $name }: { $value }
analysis-start-point = La salida: { $value }
analysis-value-proven = { $who ->
        [level] empate con el mejor juego
       *[other] { $name } gana por { $seeds } { $seeds ->
            [one] semilla
           *[other] semillas
        } con el mejor juego
    }
analysis-value-estimate = { $who ->
        [level] más o menos igualados
       *[other] { $name } va unas { $seeds } { $seeds ->
            [one] semilla
           *[other] semillas
        } por delante
    }
analysis-class = { $class ->
        [inaccuracy] imprecisión
        [mistake] error
        [blunder] error grave
       *[best] la mejor
    }
analysis-forced = la única jugada
analysis-lost-proven = perdió { $loss } { $loss ->
        [one] semilla
       *[other] semillas
    } frente al mejor juego (demostrado)
analysis-lost-estimate = perdió unas { $loss } { $loss ->
        [one] semilla
       *[other] semillas
    } (estimado, profundidad { $depth })
analysis-kept = { $proven ->
        [yes] demostrado
       *[no] estimado, profundidad { $depth }
    }
analysis-better = mejor: { $move }
analysis-better-on-board = En el tablero: se jugó { $played } (anillo rojo); { $best } era mejor (anillo verde).
analysis-turn = Turno { $turn }, { $name }
analysis-before-after = Antes: { $before }. Después: { $after }.
analysis-side-player = { $side } ({ $player })
analysis-nav = Recorrer el análisis
analysis-nav-how = Recorre la partida turno a turno, o salta al siguiente error.
analysis-slider = Turno de la partida
analysis-prev = ◀ Atrás
analysis-next = Adelante ▶
analysis-next-mistake = Siguiente error
analysis-no-mistakes = Ningún jugador cometió un error ni un error grave.
analysis-where = Turno { $turn } de { $turns }, { $name }: { $moves }
analysis-accuracy = de precisión
analysis-accuracy-value = { NUMBER($accuracy, minimumFractionDigits: 1, maximumFractionDigits: 1) } %
analysis-no-accuracy = no tuvo nada que elegir
analysis-counts = { $blunders } { $blunders ->
        [one] error grave
       *[other] errores graves
    }, { $mistakes } { $mistakes ->
        [one] error
       *[other] errores
    }, { $inaccuracies } { $inaccuracies ->
        [one] imprecisión
       *[other] imprecisiones
    }
analysis-average-loss = { NUMBER($loss, maximumFractionDigits: 2) } semillas perdidas por jugada en promedio
analysis-nodes = { $nodes } nodos por posición
analysis-engine = Analizada por la { $engine } ({ $limits }) por encima de las tablas de finales { $tables ->
        [0] (este servidor no tiene para este juego)
       *[other] (exactas hasta { $tables } semillas en el tablero)
    }.

## Quick pairing (pairing.js)
pair-title = Partida rápida
pair-how = Pulsa un reloj para jugar con el primero que quiera el mismo juego y reloj.
pair-game = Juego
pair-custom = Otro
pair-custom-minutes = Minutos
pair-custom-increment = Segundos añadidos por jugada
pair-custom-go = Buscar
pair-custom-bad = Un reloj a medida va de 1 a 180 minutos, y de 0 a 60 segundos añadidos por jugada.
pair-rated = Con puntuación
pair-range = Puntuación del rival
pair-range-any = cualquiera
pair-range-within = a { $points } o menos de la mía
pair-seeking = Buscando rival: { $game }, { $clock }…
pair-cancel = Cancelar
pair-cancelled = Búsqueda cancelada.
pair-failed = La búsqueda falló: { $error }

## Quick phrases in a live game (phrases.js)
phrase-hello = ¡Hola!
phrase-good-luck = ¡Suerte!
phrase-good-game = ¡Buena partida!
phrase-thanks = ¡Gracias!
phrase-well-played = ¡Bien jugado!
phrase-sorry = ¡Perdón!
phrase-said = { $who }: { $phrase }
phrases-mute = Silenciar las frases del rival

## Your turn (turns.js)
turns-title = Te toca
turns-button = Te toca ({ $count })
turns-game = { $game }{ $named ->
        [yes] { " " }contra { $opponent }
       *[no] {""}
    }

## Challenges by name (challenges.js)
challenges-panel =
    .aria-label = Retos
challenge-incoming = { $name } te reta: { $game }, { $clock }, { $rated ->
        [yes] puntuada
       *[no] amistosa
    }; jugarías con { $side }.
challenge-outgoing = Tu reto a { $name }: { $game }, { $clock }, { $rated ->
        [yes] puntuada
       *[no] amistosa
    }; juegas con { $side }. Esperando respuesta.
challenge-left = quedan { $time }
challenge-accept = Aceptar
challenge-decline = Rechazar
challenge-cancel = Cancelar
challenge-ended = { $state ->
        [declined] { $name } rechazó tu reto.
        [cancelled] Se canceló tu reto a { $name }.
        [accepted] { $name } aceptó tu reto.
       *[expired] Tu reto a { $name } caducó sin respuesta.
    }
challenge-not-done = No se pudo hacer: { $error }
challenge-button = Retar
challenge-title = Retar a un jugador
challenge-name = Nombre del jugador
challenge-game = Juego
challenge-seat-random = Al azar
challenge-rated = Puntuada (cambia la puntuación de los dos)
challenge-send = Enviar el reto
challenge-by-name = Retar a un jugador por su nombre
refusals-title = Retos
refusals-everyone = Rechazar los retos de todos
refusals-names = Rechazar los retos de estos jugadores:
refusals-none = nadie
refusals-name = Nombre del jugador
refusals-add = Rechazar sus retos
refusals-remove = Quitar
refusals-remove-for = Dejar de rechazar los retos de { $name }
refusals-saved = Guardado.

## Torneos (tournaments.js: la lista y el formulario; tournament.js: un torneo)
nav-tournaments = Torneos
tournaments-section =
    .aria-label = Torneos
tournaments-title = Torneos
tournaments-how = Una arena te empareja de nuevo en cuanto termina tu partida, hasta que se acaba el tiempo; un suizo juega un número fijo de rondas, emparejando a jugadores con los mismos puntos. Cuando te unes, tus partidas se abren aquí solas: haz tu primera jugada en menos de 30 segundos.
tournaments-make = Crear un torneo
tournaments-sign-in = Inicia sesión para crear un torneo o unirte a uno.
tournament-sign-in = Iniciar sesión
tournaments-upcoming = Próximos
tournaments-running = En curso
tournaments-finished = Terminados
tournaments-none = Ninguno.
tournament-form-title = Un torneo nuevo
tournament-form-name = Nombre
tournament-form-game = Juego
tournament-form-clock = Reloj
tournament-form-kind = Tipo
tournament-kind-arena = Arena: partidas nuevas en cuanto termina la tuya, durante un tiempo fijo
tournament-kind-swiss = Suizo: un número fijo de rondas
tournament-form-minutes = Duración en minutos
tournament-form-rounds = Rondas
tournament-form-starts = Empieza
tournament-form-in = dentro de
tournament-form-minutes-later = minutos
tournament-form-at = el
tournament-form-rated = Puntuado (cambia la puntuación de los jugadores)
tournament-form-min-rating = Puntuación mínima para unirse
tournament-form-none =
    .placeholder = ninguna
tournament-form-make = Crear el torneo
tournament-form-bad-length = Una arena dura de 1 a 720 minutos; un suizo tiene de 1 a 30 rondas.
tournament-form-bad-start = Elige un comienzo entre ahora y 60 días más adelante.
tournament-form-bad-rating = La puntuación mínima es un número entero de 0 a 4000, o nada.
tournament-days = { $days } d { $hours } h
tournament-hours = { $hours } h { $minutes } min
tournament-kind = { $kind ->
        [arena] Arena, { $minutes } min
       *[swiss] Suizo, { $rounds ->
            [one] 1 ronda
           *[other] { $rounds } rondas
        }
    }
tournament-rated = { $rated ->
        [yes] puntuado
       *[no] amistoso
    }
tournament-players = { $count ->
        [one] 1 jugador
       *[other] { $count } jugadores
    }
tournament-min-rating = puntuación de { $rating } o más
tournament-by = creado por { $name }
tournament-by-site = creado por el sitio
tournament-starts-in = Empieza dentro de { $time }
tournament-ends-in = Termina dentro de { $time }
tournament-ending = Se acabó el tiempo: se terminan de jugar las últimas partidas.
tournament-finished-at = Terminó el { $time }.
tournament-round-of = Ronda { $round } de { $rounds }.
tournament-next-round = Siguiente ronda dentro de { $time }.
tournament-connected = { $connected ->
        [yes] En vivo
       *[no] Reconectando…
    }
tournament-back = ← Todos los torneos
tournament-loading = Cargando el torneo…
tournament-you = { $status ->
        [active] { $over ->
            [yes] Jugaste en él.
           *[no] Estás dentro: tus partidas se abren aquí solas.
        }
        [paused] Estás en pausa: no te emparejan hasta que vuelvas.
        [withdrawn] Te retiraste: no te vuelven a emparejar.
       *[none] { $over ->
            [yes] No jugaste en él.
           *[no] No te has unido.
        }
    }
tournament-join = { $back ->
        [yes] Volver
       *[no] Unirse
    }
tournament-leave = { $kind ->
        [arena] Pausa
       *[swiss] Retirarse
    }
tournament-confirm-withdraw = ¿Te retiras de este torneo? No te volverán a emparejar.
tournament-your-game = Tu partida: contra { $opponent }, juegas con { $side }.
tournament-open-game = Abrir tu partida
tournament-berserk = Berserk
    .title = Renuncia a la mitad de tu tiempo antes de tu primera jugada: una victoria de 7 jugadas o más da un punto más.
tournament-berserked = Berserk: tu reloj perdió la mitad de su tiempo.
tournament-not-done = No se pudo hacer: { $error }
tournament-standings = Clasificación
tournament-no-players = Todavía no se ha unido nadie.
tournament-col = { $col ->
        [rank] #
        [player] Jugador
        [points] Puntos
        [buchholz] Buch.
        [sb] S-B
        [sheet] Hoja
        [performance] Rend.
       *[games] Partidas
    }
tournament-col-about = { $col ->
        [buchholz] Buchholz: los puntos de todos los rivales con los que jugó
        [sb] Sonneborn–Berger: los puntos de los rivales vencidos, y la mitad de los de aquellos con los que empató
       *[performance] Rendimiento: la media de las puntuaciones de los rivales, 500 más por victoria y 500 menos por derrota
    }
tournament-entrant = { $status ->
        [paused] (en pausa)
       *[withdrawn] (retirado)
    }
tournament-on-fire = En racha: la próxima victoria vale doble
tournament-result = { $result ->
        [south] 1–0
        [north] 0–1
        [draw] ½–½
        [bye] descansa
       *[none] en juego
    }
tournament-game-link = { $over ->
        [yes] Repasar
       *[no] Mirar
    }
tournament-bye = { $name }: descansa
tournament-pairings = Emparejamientos
tournament-round = Ronda { $round }
tournament-games = Partidas
tournament-no-games = Todavía no hay partidas.
tournament-player-games = Las partidas de { $name }
tournament-player-game = { $round ->
        [0] {""}
       *[other] Ronda { $round }: {""}
    }{ $outcome ->
        [bye] descansó
       *[other] contra { $opponent }, { $side }: { $outcome ->
            [win] ganó
            [loss] perdió
            [draw] empató
           *[playing] en juego
        }
    }
tournament-bar-back = { $name }: volver al torneo
tournament-bar-waiting = Tu siguiente partida ya empezó.
tournament-bar-next = Tu siguiente partida se abrirá aquí en cuanto se empareje.

## The school (school.js, explorer.js, practice.js): the opening explorer and endgame practice.
nav-school = Escuela
school-title = Escuela
school-explorer = Explorador de aperturas
school-practice = Práctica de finales
school-close = Cerrar
school-explore-here = Explorar esta posición
school-practise-game = Practicar el final de esta partida
explorer-game = Juego
explorer-back = Una jugada atrás
explorer-restart = Inicio
explorer-at-start = En la posición inicial.
explorer-line = Línea: { $line }
explorer-value = Valor de la posición para quien juega: { $value } (probado)
explorer-move = Jugada
explorer-value-head = Valor para quien juega
explorer-played-head = Jugada aquí
explorer-proven = { $value } probado ({ $source })
explorer-source-end = la partida termina
explorer-source-tables = tablas de finales
explorer-source-certificate = el certificado de la resolución
explorer-source-solve = resuelto en este servidor
explorer-bounded = entre { $lower } y { $upper } (cotas probadas)
explorer-estimated = { $value } estimado (profundidad { $depth })
explorer-not-played = aún no se ha jugado
explorer-played = { $games ->
        [one] una partida
       *[other] { $games } partidas
    }: ganó Sur { $south }, Norte { $north }, tablas { $draws }
explorer-solve = Resolver en segundo plano
explorer-solving = Resolviendo ({ $status ->
        [waiting] en espera
       *[running] en curso
    }): { $nodes } posiciones examinadas, como mucho { $budget } s
practice-difficulty = Dificultad
practice-easy = Fácil
practice-medium = Media
practice-hard = Difícil
practice-new = Nueva posición
practice-from-game = De la partida del tablero
practice-about = Juegas con { $side }: con juego perfecto ganas por { $final } ({ $value } desde aquí, { $seeds } semillas en el tablero; { $wrong ->
        [one] una jugada regala semillas
       *[other] { $wrong } jugadas regalan semillas
    }). Gana contra una defensa perfecta.
practice-your-move = Te toca. Semillas regaladas hasta ahora: { $lost }.
practice-defending = La defensa perfecta está jugando…
practice-told = { $move }: valor { $before } antes, { $after } después: { $lost ->
        [0] nada regalado
        [one] una semilla regalada
       *[other] { $lost } semillas regaladas
    }
practice-converted = Convertido: ganaste por { $margin } y regalaste { $lost ->
        [0] nada
        [one] una semilla
       *[other] { $lost } semillas
    } por el camino.
practice-missed = No convertido: la partida terminó { $margin } para ti, con { $lost ->
        [one] una semilla regalada
       *[other] { $lost } semillas regaladas
    }. Inténtalo de nuevo.

## Puzzles (puzzles.js)
nav-puzzles = Problemas
puzzles-title = Problemas
puzzles-game = Juego
puzzles-game-hoyito-ii = Hoyito II
puzzles-game-hoyito-iii = Hoyito III
puzzles-game-ayoayo = Ayoayo
puzzles-rated = Un problema a mi nivel
puzzles-daily = Problema del día
puzzles-streak = Racha
puzzles-next = Siguiente problema
puzzles-themes = Temas
theme-relay-chain = Cadena de relevos
theme-casa-chain = Cadena de casas
theme-extra-turn = Captura y otro turno
theme-feeding = Alimentar al rival
theme-last-four = Las cuatro últimas
theme-forced-pass = Un pase forzado
theme-sweep = El barrido final
puzzles-find-south = Juega Sur: encuentra la única jugada que conserva el valor probado
puzzles-find-north = Juega Norte: encuentra la única jugada que conserva el valor probado
puzzles-daily-of = Problema del { $day }
puzzles-puzzle-rating = Problema de nivel { $rating }
puzzles-your-rating = Tu nivel en problemas: { $rating } (±{ $deviation })
puzzles-streak-count = Racha: { $count }
puzzles-your-move = Te toca.
puzzles-right = ¡Correcto!
puzzles-wrong = Incorrecto: { $move } regala semillas. La jugada era { $right }.
puzzles-solved = ¡Resuelto!
puzzles-missed = Fallado: la jugada correcta era { $right }.
puzzles-streak-solved = ¡Resuelto! Racha: { $count }. El siguiente es más difícil.
puzzles-streak-over = La racha termina en { $count } (mejor: { $best }).
puzzles-none = Todavía no hay problemas de este tipo: el servidor los busca en cuanto tiene tablas de finales.
puzzles-close = Cerrar

# El tablero pequeño de los diálogos (smallboard.js: problemas, explorador, práctica).
small-board-captured = Capturadas: Sur { $south }, Norte { $north }
small-board-over = La partida terminó.
small-board-to-move = Juega { $side ->
        [south] Sur
       *[north] Norte
    }
small-board-pass = Pasar
